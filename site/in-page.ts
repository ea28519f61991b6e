/**
 * Wraps a function that runs inside the page. tsx (esbuild with keepNames) rewrites inner functions as
 * `__name(fn, "fn")`, and `__name` does not exist in the browser, so a function serialised by Playwright
 * would throw there. The wrapper defines a no-op `__name` around the original source; it is a real
 * function, so Playwright still passes arguments (element handles included) to it.
 */
export function inPage<A, R>(fn: (arg: A) => R): (arg: A) => R {
  return new Function('arg', `const __name = (f) => f; return (${fn.toString()})(arg);`) as (arg: A) => R;
}
