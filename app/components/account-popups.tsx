import { AuthDialog } from './auth-dialog'
import { LastOrdersDialog } from './last-orders-dialog'

/** The URL-state popups of the header, in a chunk of their own: most pages never open them. */
export default function AccountPopups() {
  return (
    <>
      <AuthDialog />
      <LastOrdersDialog />
    </>
  )
}
