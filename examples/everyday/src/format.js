// Formats a list of prices (numbers of euros) as a total.
export function formatTotal(prices) {
  let total = 0;
  for (const price of prices) total += price;
  return `€${total}`;
}
