import { launch } from 'chrome-launcher'
import lighthouse from 'lighthouse'

export interface LighthouseScores {
  url: string
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
  /** The performance score of every run, in order. */
  runs: number[]
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
export async function runLighthouse(urls: string[], runs = 3): Promise<LighthouseScores[]> {
  const chrome = await launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  })
  const out: LighthouseScores[] = []
  try {
    for (const url of urls) {
      const tries: LighthouseScores[] = []
      for (let i = 0; i < runs; i++) {
        const result = await lighthouse(url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        })
        const c = result?.lhr.categories
        const score = (k: string) => Math.round((c?.[k]?.score ?? 0) * 100)
        tries.push({
          url,
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          seo: score('seo'),
          runs: [],
        })
      }
      const sorted = [...tries].sort((a, b) => a.performance - b.performance)
      const median = sorted[Math.floor(sorted.length / 2)]!
      out.push({ ...median, runs: tries.map((t) => t.performance) })
    }
  } finally {
    await chrome.kill()
  }
  return out
}
