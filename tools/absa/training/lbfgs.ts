/** Objective for the optimiser: writes the gradient into `grad` and returns the value. */
export type Objective = (x: Float64Array, grad: Float64Array) => number;

/** Options of {@link minimizeLbfgs}. */
export interface LbfgsOptions {
  maxIterations: number;
  /** History size. */
  memory: number;
  /** Stop when the relative decrease of the objective falls below this. */
  tolerance: number;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function twoLoop(
  grad: Float64Array,
  s: Float64Array[],
  y: Float64Array[],
  rho: number[],
): Float64Array {
  const q = Float64Array.from(grad);
  const alpha: number[] = [];
  for (let k = s.length - 1; k >= 0; k--) {
    const a = rho[k]! * dot(s[k]!, q);
    alpha[k] = a;
    const yk = y[k]!;
    for (let i = 0; i < q.length; i++) q[i]! -= a * yk[i]!;
  }
  if (s.length > 0) {
    const last = s.length - 1;
    const gamma = dot(s[last]!, y[last]!) / dot(y[last]!, y[last]!);
    for (let i = 0; i < q.length; i++) q[i]! *= gamma;
  }
  for (let k = 0; k < s.length; k++) {
    const b = rho[k]! * dot(y[k]!, q);
    const sk = s[k]!;
    const c = alpha[k]! - b;
    for (let i = 0; i < q.length; i++) q[i]! += c * sk[i]!;
  }
  return q;
}

/**
 * Minimises a smooth convex function with limited-memory BFGS and a backtracking (Armijo) line
 * search. It uses no randomness, so the same objective and start point give bit-identical results.
 */
export function minimizeLbfgs(f: Objective, x0: Float64Array, options: LbfgsOptions): Float64Array {
  const n = x0.length;
  let x = Float64Array.from(x0);
  let grad = new Float64Array(n);
  let fx = f(x, grad);
  const s: Float64Array[] = [];
  const y: Float64Array[] = [];
  const rho: number[] = [];
  const nextGrad = new Float64Array(n);
  for (let iter = 0; iter < options.maxIterations; iter++) {
    const dir = twoLoop(grad, s, y, rho);
    let slope = -dot(grad, dir);
    if (slope >= 0) {
      dir.set(grad);
      slope = -dot(grad, grad);
      s.length = 0;
      y.length = 0;
      rho.length = 0;
    }
    let step = iter === 0 && s.length === 0 ? 1 / Math.sqrt(dot(grad, grad) || 1) : 1;
    const xNew = new Float64Array(n);
    let fNew = fx;
    for (let tries = 0; tries < 40; tries++) {
      for (let i = 0; i < n; i++) xNew[i] = x[i]! - step * dir[i]!;
      fNew = f(xNew, nextGrad);
      if (fNew <= fx + 1e-4 * step * slope) break;
      step *= 0.5;
    }
    if (!(fNew < fx)) break;
    const sk = new Float64Array(n);
    const yk = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      sk[i] = xNew[i]! - x[i]!;
      yk[i] = nextGrad[i]! - grad[i]!;
    }
    const sy = dot(sk, yk);
    if (sy > 1e-12) {
      s.push(sk);
      y.push(yk);
      rho.push(1 / sy);
      if (s.length > options.memory) {
        s.shift();
        y.shift();
        rho.shift();
      }
    }
    const decrease = (fx - fNew) / Math.max(1, Math.abs(fx));
    x = xNew;
    grad = Float64Array.from(nextGrad);
    fx = fNew;
    if (decrease < options.tolerance) break;
  }
  return x;
}
