// The `bunny` package ships no types: a CommonJS module of two arrays.
declare module 'bunny' {
  export const positions: number[][];
  export const cells: number[][];
}
