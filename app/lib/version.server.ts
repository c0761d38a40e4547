// The shop's release, as `package.json` names it; the back-office footer shows it (issue 37).
import pkg from '../../package.json' with { type: 'json' }

export const SHOP_VERSION: string = pkg.version
