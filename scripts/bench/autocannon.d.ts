// The part of autocannon's result the benchmark reads (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string
    connections?: number
    duration?: number
    headers?: Record<string, string>
  }
  interface Result {
    requests: { average: number; total: number }
    latency: { p50: number; p99: number }
    errors: number
    timeouts: number
    non2xx: number
  }
  export default function autocannon(opts: Options): Promise<Result>
}
