// What the e2e run's contract watch (api/src/lib/contract-watch.ts) writes and where: a line per
// problem at once, the counts every second, in a file of the shop's data folder, which
// e2e/global-teardown.ts reads after the run (issue 44).

/** The file, in the shop's DATA_DIR. */
export const CONTRACT_WATCH_FILE = 'contract-watch.jsonl'

/** One line of the file. */
export type WatchLine =
  | {
      kind: 'problem'
      /**
       * answer: an answer the contract does not promise; refused: a request it allows, refused as
       * invalid; accepted: a request it does not allow, answered with success
       */
      problem: 'answer' | 'refused' | 'accepted'
      method: string
      url: string
      status: number
      detail: string
    }
  | { kind: 'counts'; pid: number; requests: number; offContract: number; operations: string[] }
