// A game's or gift's logo: the current one and a file upload (a plain multipart post, so it works
// without JavaScript; the API checks the image by its bytes).
import { useT } from '#app/i18n/i18n-context'
import { AdminForm, FileField, Submit } from './admin-form'

export function LogoUpload({ logo, title }: { logo: string; title: string }) {
  const t = useT()
  return (
    <section className="card admin-section" aria-labelledby="logo-upload">
      <h2 id="logo-upload">{t('admin.logo.title')}</h2>
      {logo ? (
        <img
          className="admin-logo"
          src={logo}
          alt={t('admin.logo.current', { title })}
          width={96}
          height={96}
        />
      ) : (
        <p>{t('admin.logo.none')}</p>
      )}
      <AdminForm formKey="logo" intent="logo" label={t('admin.logo.title')} encType="multipart/form-data">
        <FileField
          name="logo"
          label={t('admin.logo.file')}
          hint={t('admin.logo.hint')}
          accept="image/png,image/jpeg,image/webp,image/gif"
        />
        <Submit>{t('admin.logo.upload')}</Submit>
      </AdminForm>
    </section>
  )
}
