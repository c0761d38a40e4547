import { launch } from 'chrome-launcher'
import lighthouse from 'lighthouse'

export interface LighthouseScores {
  url: string
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
  /** The simulated metrics of this run, in ms (what the performance score is made of). */
  firstContentfulPaint: number
  largestContentfulPaint: number
  totalBlockingTime: number
  /** Lighthouse's measure of the host's CPU at the time (it calls a host below 1000 slow). */
  benchmarkIndex: number
  /** Every run in order: its performance score, or `failed (CODE)` when Lighthouse could not score it. */
  runs: string[]
}

const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Mobile Lighthouse (default config) for each URL, in one Chromium: `runs` runs per URL, the run
 * with the median performance score reported (one run swings by several points on a shared
 * machine, as Lighthouse's own documentation warns).
 */
export async function runLighthouse(
  urls: string[],
  runs = 3,
  /** Sent with every request of the page (a signed-in buyer's cookie). */
  extraHeaders?: Record<string, string>,
): Promise<LighthouseScores[]> {
  const chrome = await launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  })
  const out: LighthouseScores[] = []
  try {
    for (const url of urls) {
      const tries: LighthouseScores[] = []
      /** Every run in order: its performance score, or why Lighthouse could not score it. */
      const runLog: string[] = []
      // a run Lighthouse could not finish (a page that never painted in its time, a lost
      // protocol connection) is not a score of 0: it is noted, and another run takes its place
      for (let attempt = 0; tries.length < runs && attempt < runs + 2; attempt++) {
        const result = await lighthouse(url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
          ...(extraHeaders ? { extraHeaders } : {}),
        })
        const c = result?.lhr.categories
        const failed = result?.lhr.runtimeError?.code ?? (c?.performance?.score == null ? 'NO_SCORE' : null)
        if (failed) {
          runLog.push(`failed (${failed})`)
          continue
        }
        const score = (k: string) => Math.round((c?.[k]?.score ?? 0) * 100)
        const ms = (k: string) => Math.round(result?.lhr.audits[k]?.numericValue ?? 0)
        tries.push({
          url,
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          seo: score('seo'),
          firstContentfulPaint: ms('first-contentful-paint'),
          largestContentfulPaint: ms('largest-contentful-paint'),
          totalBlockingTime: ms('total-blocking-time'),
          benchmarkIndex: Math.round(result?.lhr.environment.benchmarkIndex ?? 0),
          runs: [],
        })
        runLog.push(String(score('performance')))
      }
      if (tries.length === 0) throw new Error(`Lighthouse could not score ${url}: ${runLog.join(', ')}`)
      const sorted = [...tries].sort((a, b) => a.performance - b.performance)
      const median = sorted[Math.floor(sorted.length / 2)]!
      out.push({ ...median, runs: runLog })
    }
  } finally {
    await chrome.kill()
  }
  return out
}
