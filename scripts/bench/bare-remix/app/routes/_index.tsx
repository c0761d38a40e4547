export default function Bare() {
  return <p>Голая страница Remix для сравнения.</p>
}
