// Vitest setup of the API projects: after each test file, what its exchanges with the contract
// looked like goes to .cache/contract/ (tests/helpers/contract-recorder.ts), added up after the run.
import path from 'node:path'
import { afterAll, expect } from 'vitest'
import { writeTraffic } from './contract-recorder'

afterAll(() => writeTraffic(path.relative(process.cwd(), expect.getState().testPath ?? '')))
