/// The dashboard's stylesheet: a dark console around faithful miniatures of the Lock Screen card and
/// the Dynamic Island (sizes follow the iOS layouts: ~160 pt card, 37 pt compact island).
enum DashboardStyle {
    /// The hand-written rules, then one badge rule per decision-log event (generated from the schema).
    static let css = handWritten + DashboardEvents.css + DashboardQuestionsScript.css

    static let handWritten = #"""
        :root { --bg:#0a0a0d; --panel:#131318; --panel-2:#1a1a21; --line:#25252e; --text:#ececf1; --muted:#8b8b98;
          --green:#30D158; --amber:#FF9F0A; --red:#FF453A; --blue:#0A84FF; --purple:#BF5AF2;
          --mono: ui-monospace, "SF Mono", "JetBrains Mono", Menlo, Consolas, monospace; }
        * { box-sizing: border-box; }
        html, body { margin:0; background:var(--bg); color:var(--text);
          font: 14px/1.45 -apple-system, BlinkMacSystemFont, "SF Pro Text", "Inter", "Segoe UI", Roboto, sans-serif; }
        .topbar { display:flex; justify-content:space-between; align-items:center; padding:18px 32px;
          border-bottom:1px solid var(--line); background:linear-gradient(180deg,#111116,#0a0a0d); position:sticky; top:0; z-index:2; }
        .brand { display:flex; align-items:baseline; gap:12px; }
        .logo { font-weight:800; letter-spacing:.08em; font-size:20px;
          background:linear-gradient(90deg,var(--green),var(--amber)); -webkit-background-clip:text; color:transparent; }
        .brand-sub { color:var(--muted); font-size:13px; }
        .status { display:flex; align-items:center; gap:14px; }
        .pill { padding:4px 10px; border-radius:999px; font-size:12px; font-weight:600; border:1px solid var(--line);
          max-width:560px; overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
        .pill-on { color:var(--green); border-color:rgba(48,209,88,.35); background:rgba(48,209,88,.08); }
        .pill-muted { color:var(--muted); background:var(--panel); }
        .pill-warn { color:var(--amber); border-color:rgba(255,159,10,.35); background:rgba(255,159,10,.08); }
        [hidden] { display:none !important; }
        .uncertain { margin:10px 0 12px; padding:9px 12px; border:1px solid rgba(255,159,10,.45); border-radius:10px;
          background:rgba(255,159,10,.08); color:#ffd28a; font-size:12.5px; line-height:1.45; }
        .uncertain strong { color:var(--amber); display:block; margin-bottom:2px; }
        .device.is-uncertain .surfaces { opacity:.72; }
        .live { display:flex; align-items:center; gap:6px; color:var(--muted); font-size:12px; }
        .live i { width:8px; height:8px; border-radius:50%; background:var(--muted); display:inline-block; }
        .live.on i { background:var(--green); box-shadow:0 0 0 3px rgba(48,209,88,.18); }
        .clock { font-family:var(--mono); color:var(--muted); font-size:12px; }
        main { padding:24px 32px 48px; max-width:1480px; margin:0 auto; }
        .block { background:var(--panel); border:1px solid var(--line); border-radius:14px; padding:18px 20px; margin-bottom:20px; }
        .block-head { display:flex; align-items:baseline; gap:14px; margin-bottom:14px; }
        .block-head h2 { margin:0; font-size:15px; font-weight:650; }
        .block-head p { margin:0; color:var(--muted); font-size:12.5px; }
        .columns { display:grid; grid-template-columns: 1.25fr 1fr; gap:20px; }
        .columns .block { margin-bottom:20px; }
        .empty { color:var(--muted); margin:6px 0; }
        .devices { display:flex; flex-direction:column; gap:16px; }
        .device { background:var(--panel-2); border:1px solid var(--line); border-radius:12px; padding:16px; }
        .device-head { display:flex; flex-wrap:wrap; align-items:center; gap:10px; margin-bottom:14px; }
        .device-name { font-weight:650; font-size:14.5px; }
        .tag { font-size:11.5px; padding:2px 8px; border-radius:6px; background:#23232b; color:#c6c6d0; border:1px solid var(--line); }
        .tag.warn { color:var(--amber); border-color:rgba(255,159,10,.35); background:rgba(255,159,10,.08); }
        .tag.ok { color:var(--green); border-color:rgba(48,209,88,.35); background:rgba(48,209,88,.08); }
        .surfaces { display:grid; grid-template-columns: max-content max-content max-content; justify-content:start; gap:22px; align-items:start; }
        .surface-col { display:flex; flex-direction:column; gap:8px; }
        .surface-label { color:var(--muted); font-size:11px; text-transform:uppercase; letter-spacing:.08em; }
        .wallpaper { padding:16px; border-radius:18px; min-height:192px; display:flex; align-items:center; justify-content:center;
          background:radial-gradient(120% 140% at 20% 0%, #3a3f63 0%, #1b1d2c 45%, #101018 100%); }
        .lock { width:328px; height:160px; overflow:hidden; border-radius:22px; padding:12px 14px;
          background:rgba(18,18,22,.82); backdrop-filter: blur(18px); border:1px solid rgba(255,255,255,.06);
          box-shadow:0 10px 30px rgba(0,0,0,.35); position:relative; }
        .lock::before { content:""; position:absolute; left:0; top:14px; bottom:14px; width:3px; border-radius:3px; background:var(--accent); }
        .card-head { display:flex; align-items:center; gap:10px; margin-bottom:6px; }
        .total { font-size:22px; font-weight:750; letter-spacing:-.01em; }
        .total small { font-size:12px; font-weight:600; color:#b9b9c6; margin-left:3px; letter-spacing:0; }
        .counts { display:inline-flex; gap:10px; }
        .count { display:inline-flex; align-items:center; gap:4px; font-weight:650; font-size:13px; }
        .count i { width:8px; height:8px; border-radius:50%; display:inline-block; }
        .count.working i { background:var(--green); } .count.needs i { background:var(--amber); }
        .rows { display:flex; flex-direction:column; gap:3px; }
        .row { display:flex; align-items:center; gap:8px; font-size:13px; height:21px; }
        .row i { width:6px; height:6px; border-radius:50%; flex:none; }
        .row[data-state="working"] i { background:var(--green); } .row[data-state="needsInput"] i { background:var(--amber); }
        .row .title { flex:1; white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
        .row .elapsed { color:#a3a3b0; font-variant-numeric:tabular-nums; font-size:12px; }
        .overflow { color:#a3a3b0; font-size:12px; margin-top:2px; }
        .island-expanded { width:340px; border-radius:42px; background:#000; padding:14px 20px 16px; box-shadow:0 8px 24px rgba(0,0,0,.45); }
        .island-expanded .card-head { justify-content:space-between; }
        .dot { width:8px; height:8px; border-radius:50%; background:var(--accent); display:inline-block; }
        .islands-small { display:flex; gap:22px; align-items:center; padding:0 6px; }
        .island-compact { width:236px; height:37px; border-radius:999px; background:#000; display:flex; align-items:center;
          justify-content:space-between; padding:0 6px 0 14px; position:relative; box-shadow:0 6px 18px rgba(0,0,0,.45); }
        .island-compact::after { content:""; position:absolute; left:50%; top:50%; width:84px; height:26px; transform:translate(-50%,-50%);
          border-radius:999px; background:#0b0b0b; }
        .island-compact .total-small { color:var(--accent); font-weight:700; font-size:14px; padding-right:8px; }
        .island-minimal { width:37px; height:37px; border-radius:50%; background:#000; display:flex; align-items:center; justify-content:center; box-shadow:0 6px 18px rgba(0,0,0,.45); }
        .nocard { width:328px; height:160px; border-radius:22px; border:1px dashed #3a3a46; display:flex; align-items:center;
          justify-content:center; color:var(--muted); text-align:center; padding:20px; font-size:13px; }
        .table { width:100%; border-collapse:collapse; font-size:13px; }
        .table th { text-align:left; color:var(--muted); font-weight:550; font-size:11.5px; text-transform:uppercase; letter-spacing:.06em;
          padding:6px 8px; border-bottom:1px solid var(--line); }
        .table td { padding:8px; border-bottom:1px solid #1e1e26; vertical-align:top; }
        .table tr:last-child td { border-bottom:none; }
        .mono { font-family:var(--mono); font-size:12px; }
        .muted { color:var(--muted); }
        .state { display:inline-flex; align-items:center; gap:6px; font-weight:600; font-size:12px; padding:2px 8px; border-radius:6px; }
        .state i { width:7px; height:7px; border-radius:50%; }
        .state-working { color:var(--green); background:rgba(48,209,88,.09); } .state-working i { background:var(--green); }
        .state-needsInput { color:var(--amber); background:rgba(255,159,10,.10); } .state-needsInput i { background:var(--amber); }
        .state-blocked { color:var(--purple); background:rgba(191,90,242,.10); } .state-blocked i { background:var(--purple); }
        .state-idle { color:#a0a0ad; background:#202028; } .state-idle i { background:#6d6d78; }
        .state-noNews { color:var(--amber); background:rgba(255,159,10,.06); } .state-noNews i { background:var(--amber); opacity:.5; }
        .row-line { color:var(--muted); font-weight:400; }
        .state-unknown { color:var(--red); background:rgba(255,69,58,.10); } .state-unknown i { background:var(--red); }
        .down { color:var(--red); font-size:11px; font-weight:650; margin-left:6px; }
        .timeline { list-style:none; margin:0; padding:0; max-height:420px; overflow:auto; font-size:12.5px; }
        .timeline li { display:grid; grid-template-columns: 74px 110px 118px 1fr; gap:10px; padding:6px 4px; border-bottom:1px solid #1c1c24; align-items:baseline; }
        .timeline li.fresh { animation: flash 1.2s ease-out; }
        @keyframes flash { from { background:rgba(10,132,255,.16); } to { background:transparent; } }
        .ev { font-weight:650; font-size:11.5px; padding:1px 7px; border-radius:5px; justify-self:start; }
        .bad { color:var(--red); } .good { color:var(--green); }
        @media (max-width: 1200px) { .surfaces { grid-template-columns: max-content; } .columns { grid-template-columns: 1fr; } }
        """#
}
