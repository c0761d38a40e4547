import { launch } from 'chrome-launcher'
import lighthouse from 'lighthouse'

export interface LighthouseScores {
  url: string
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
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

/** Mobile Lighthouse (default config) for each URL, in one Chromium. */
export async function runLighthouse(urls: string[]): Promise<LighthouseScores[]> {
  const chrome = await launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  })
  const out: LighthouseScores[] = []
  try {
    for (const url of urls) {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      })
      const c = result?.lhr.categories
      const score = (k: string) => Math.round((c?.[k]?.score ?? 0) * 100)
      out.push({
        url,
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
      })
    }
  } finally {
    await chrome.kill()
  }
  return out
}
