export function PricingTable({ plans }: { plans: { name: string; price: number }[] }) {
  return (
    <table>
      {plans.map((p) => (
        <tr key={p.name}>
          <td>{p.name}</td>
          <td>{p.price}</td>
        </tr>
      ))}
    </table>
  );
}
