/** One small stylesheet for every server-rendered page. */
export const PAGES_CSS = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --bg: #fbfbfd; --card: #fff; --line: #dfe3ea; --accent: #3451b2; --ok: #1a7f37; --bad: #b42318; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8ee; --muted: #9aa3b5; --bg: #14161c; --card: #1c1f27; --line: #2c313c; --accent: #8ea2ff; --ok: #5fd17a; --bad: #ff8a7a; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 60rem; margin: 0 auto; padding: 2.5rem 1.25rem 1rem; }
footer { max-width: 60rem; margin: 0 auto; padding: 1rem 1.25rem 2.5rem; color: var(--muted); font-size: .9rem; }
h1 { font-size: 1.9rem; margin: 0 0 .5rem; } h2 { margin-top: 2rem; font-size: 1.3rem; } h3 { font-size: 1.05rem; margin: 1.25rem 0 .25rem; }
a { color: var(--accent); }
p.lead { color: var(--muted); font-size: 1.1rem; margin-top: 0; }
code, pre { font: .88rem/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; overflow-x: auto; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .9rem; margin: 1.5rem 0; }
a.card { text-decoration: none; color: inherit; } a.card:hover { border-color: var(--accent); } .card h3 { color: var(--accent); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.1rem; }
.card h3 { margin-top: 0; } .card p { margin: .25rem 0 0; color: var(--muted); font-size: .95rem; }
.box { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1.5rem; max-width: 30rem; }
.ok { color: var(--ok); } .bad { color: var(--bad); } .muted { color: var(--muted); }
button { font: inherit; background: var(--accent); color: #fff; border: 0; border-radius: 8px; padding: .6rem 1.1rem; cursor: pointer; }
input[type=password] { font: inherit; width: 100%; padding: .5rem .6rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); margin: .25rem 0 1rem; }
label { display: block; font-weight: 600; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; } dl.meta dt { color: var(--muted); } dl.meta dd { margin: 0; }
.op { border-top: 1px solid var(--line); padding: .75rem 0; }
.method { display: inline-block; min-width: 4.2rem; font-weight: 700; font-family: ui-monospace, monospace; }
.m-get { color: #1a7f37; } .m-post { color: #3451b2; } .m-patch, .m-put { color: #9a6700; } .m-delete { color: #b42318; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; } th, td { text-align: left; border-bottom: 1px solid var(--line); padding: .3rem .5rem; vertical-align: top; }
nav.toc { columns: 2 14rem; font-size: .92rem; } nav.toc a { display: block; }
details summary { cursor: pointer; color: var(--muted); }
`;
