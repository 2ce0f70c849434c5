// The bare PGlite boot (bench/bare.html): PGlite's defaults, initdb included.
const base = new URL(self.location.href).searchParams.get('base');
try {
  const { PGlite } = await import(new URL('index.js', base).href);
  const db = await PGlite.create();
  const r = await db.query("select current_setting('server_version') as v");
  self.postMessage({ version: r.rows[0].v });
} catch (e) {
  self.postMessage({ error: String(e && e.message ? e.message : e) });
}
