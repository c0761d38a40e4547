// Issue 34 with JavaScript on, on a phone: a first-time email buys above the threshold, the
// order is held («на проверке», no code); the owner approves one (the buyer's page shows the code)
// and rejects another (the buyer's page shows the refund). Steps: antifraud-review-steps.ts.
import { antifraudReviewTests } from './antifraud-review-steps'

antifraudReviewTests(true)
