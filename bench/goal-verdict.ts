/** `234.0 µs (goal ≤ 120: NOT met)`: a figure against an issue's goal, said plainly. */
export function goalVerdict(micros: number, goal: number): string {
  return `${micros.toFixed(1)} µs (goal ≤ ${goal}: ${micros <= goal ? "met" : "NOT met"})`;
}

/** `1.74x (goal ≤ 1.5x: NOT met)`: a ratio against an issue's goal, said plainly. */
export function ratioVerdict(ratio: number, goal: number): string {
  return `${ratio.toFixed(2)}x (goal ≤ ${goal}x: ${ratio <= goal ? "met" : "NOT met"})`;
}
