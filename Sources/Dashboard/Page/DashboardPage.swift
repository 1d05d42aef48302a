/// The dashboard's HTML shell: static markup the script fills from `/dashboard/snapshot` and `/api/events`.
/// No build step, no external resources; the stylesheet and script are served beside it.
enum DashboardPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>LFG · Fleet</title>
        <link rel="stylesheet" href="/dashboard.css">
        </head>
        <body data-ready="0">
        <header class="topbar">
          <div class="brand"><span class="logo">LFG</span><span class="brand-sub">Fleet card</span></div>
          <div class="status">
            <span id="watcher" class="pill pill-muted">Watcher</span>
            <span id="log-health" class="pill pill-warn" hidden title="Writing liveactivity.log failed: lines are lost (see lfg serve's stderr)"></span>
            <span id="live" class="live" title="Live decision log"><i></i><span>connecting</span></span>
            <span id="clock" class="clock"></span>
          </div>
        </header>
        <main>
          <section class="block">
            <div class="block-head"><h2>Phones</h2><p>Each phone's fleet card as the server last sent it, on the four surfaces.</p></div>
            <div id="devices" class="devices"><p class="empty">Loading…</p></div>
          </section>
          <section class="block">
            <div class="block-head"><h2>Questions</h2><p id="questions-summary"></p></div>
            <div id="questions" class="questions"></div>
          </section>
          <div class="columns">
            <section class="block">
              <div class="block-head"><h2>Sessions</h2><p id="sessions-summary"></p></div>
              <table class="table" id="sessions"><thead><tr><th>State</th><th>Session</th><th>Host</th><th>Folder</th></tr></thead><tbody></tbody></table>
            </section>
            <section class="block">
              <div class="block-head"><h2>Tokens</h2><p>First 8 hex characters only.</p></div>
              <table class="table" id="tokens"><thead><tr><th>Device</th><th>Kind</th><th>Env</th><th>Token</th><th>Age</th></tr></thead><tbody></tbody></table>
            </section>
          </div>
          <section class="block">
            <div class="block-head"><h2>Decision log</h2><p>Decides, sends, adoptions, vetoes and endings as they happen.</p></div>
            <ol id="timeline" class="timeline"></ol>
          </section>
        </main>
        <script src="/dashboard.js"></script>
        </body>
        </html>
        """#
}
