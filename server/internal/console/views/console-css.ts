/** The console's one stylesheet, served from the console itself (no external assets; CSP `style-src 'self'`). */
export const CONSOLE_CSS = `
:root { --ink:#1d2433; --muted:#5d6678; --line:#d9dee7; --bg:#f5f7fa; --accent:#2856c8; --ok:#1f7a45; --warn:#9a5b00; --bad:#b3261e; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; color:var(--ink); background:var(--bg); }
header.top { display:flex; align-items:center; gap:24px; padding:12px 28px; background:#17233d; color:#fff; }
header.top .brand { font-weight:700; letter-spacing:.02em; }
header.top nav a { color:#cfd8ee; text-decoration:none; margin-right:18px; }
header.top nav a[aria-current=page] { color:#fff; border-bottom:2px solid #8fb0ff; padding-bottom:2px; }
header.top .who { margin-left:auto; display:flex; align-items:center; gap:12px; color:#cfd8ee; }
header.top .who button { background:transparent; color:#fff; border:1px solid #5b6b8f; }
main { max-width:1360px; margin:24px auto; padding:0 28px; }
h1 { font-size:22px; margin:0 0 16px; } h2 { font-size:17px; margin:28px 0 10px; }
.card { background:#fff; border:1px solid var(--line); border-radius:8px; padding:16px 20px; margin-bottom:16px; }
table { width:100%; border-collapse:collapse; background:#fff; border:1px solid var(--line); border-radius:8px; }
th, td { text-align:left; padding:9px 10px; border-bottom:1px solid var(--line); vertical-align:top; }
th { white-space:nowrap; font-size:12px; text-transform:uppercase; letter-spacing:.04em; color:var(--muted); background:#fafbfd; }
tr:last-child td { border-bottom:none; }
a { color:var(--accent); }
code, pre { font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; }
pre { margin:0; white-space:pre-wrap; word-break:break-all; }
.muted { color:var(--muted); }
.nowrap { white-space:nowrap; }
.badge { display:inline-block; white-space:nowrap; padding:1px 8px; border-radius:10px; font-size:12px; font-weight:600; background:#e8ecf4; }
.badge.pending_review { background:#fff1d6; color:var(--warn); } .badge.active, .badge.approved { background:#dff3e6; color:var(--ok); }
.badge.rejected, .badge.deprecated { background:#fbe3e1; color:var(--bad); } .badge.changes_requested { background:#e6ecff; color:var(--accent); }
.badge.suspended { background:#eee; color:#444; }
.flash { background:#e9f6ee; border:1px solid #b9e0c7; padding:10px 14px; border-radius:6px; margin-bottom:16px; }
.error { background:#fdecea; border:1px solid #f3b9b3; padding:10px 14px; border-radius:6px; margin-bottom:16px; }
.notice { background:#fff7e6; border:1px solid #f0d29a; padding:10px 14px; border-radius:6px; margin-bottom:16px; }
form.inline { display:inline; }
.decisions { margin-top:12px; display:grid; grid-template-columns:repeat(auto-fit,minmax(230px,1fr)); gap:12px; }
.decisions form { background:#fff; border:1px solid var(--line); border-radius:8px; padding:12px; }
label { display:block; font-weight:600; margin:4px 0; }
textarea, input[type=text], select { width:100%; padding:7px 9px; border:1px solid #b9c1cf; border-radius:6px; font:inherit; }
textarea { min-height:64px; }
button { font:inherit; padding:6px 14px; border-radius:6px; border:1px solid var(--accent); background:var(--accent); color:#fff; cursor:pointer; margin-top:8px; }
button.secondary { background:#fff; color:var(--accent); } button.danger { background:var(--bad); border-color:var(--bad); }
.diff td.key { font-weight:600; width:22%; } .diff .added { background:#e9f7ee; } .diff .removed { background:#fdeeee; } .diff .changed { background:#fff8e6; }
.diff del { color:var(--bad); } .diff ins { color:var(--ok); text-decoration:none; }
.filters { display:flex; gap:8px; align-items:end; margin-bottom:14px; } .filters input { width:280px; }
ol.comments { list-style:none; padding:0; margin:0 0 12px; } ol.comments li { margin-bottom:8px; padding:10px 16px; } ol.comments p { margin:0; } .comment-body { white-space:pre-wrap; }
dl.facts { display:grid; grid-template-columns:max-content 1fr; gap:4px 18px; margin:0; } dl.facts dt { color:var(--muted); } dl.facts dd { margin:0; }
`;
