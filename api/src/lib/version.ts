// The shop's release, as `package.json` names it (CHANGELOG.md, docs/upgrading.md).
import pkg from '../../../package.json' with { type: 'json' }

export const SHOP_VERSION: string = pkg.version
