/** "Coming soon" page for a menu link a later issue builds: its title and nothing else. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <section className="page page-coming-soon">
      <h1>{title}</h1>
      <p className="lead">coming soon</p>
    </section>
  );
}
