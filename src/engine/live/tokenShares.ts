/**
 * Splits `total` whole tokens in proportion to `weights` so that the shares add up to `total` exactly
 * (largest remainders get the leftover units). With no weight at all, the split is even.
 */
export function largestRemainder(total: number, weights: readonly number[]): number[] {
  if (weights.length === 0) return [];
  if (weights.length === 1) return [total];
  const sum = weights.reduce((acc, weight) => acc + Math.max(0, weight), 0);
  const exact = weights.map((weight) =>
    sum > 0 ? (total * Math.max(0, weight)) / sum : total / weights.length,
  );
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((acc, share) => acc + share, 0);
  if (left === 0) return shares;
  const order = exact.map((value, i) => [value - shares[i], i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) shares[order[k][1]]++;
  return shares;
}
