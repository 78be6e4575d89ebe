/** `234.0 µs (goal ≤ 120: NOT met)`: a figure against an issue's goal, said plainly. */
export function goalVerdict(micros: number, goal: number): string {
  return `${micros.toFixed(1)} µs (goal ≤ ${goal}: ${micros <= goal ? "met" : "NOT met"})`;
}
