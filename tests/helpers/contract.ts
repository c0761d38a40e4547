// The contract checker of the tests: shared/contract-check.ts (the same module the e2e run's
// contract watch uses, so both judge traffic alike).
export {
  type Answer,
  contractDoc,
  contractOperations,
  judgeExchange,
  operationOf,
  requestProblems,
  responseProblem,
  type SentRequest,
} from '../../shared/contract-check'
