/// The dashboard's script: paints `/dashboard/snapshot` (surfaces and labels computed on the server),
/// asks again when the next elapsed label is due, and follows `/api/events` for the live decision log.
/// Builds the DOM with `textContent` only, so no session title can inject markup. Event names come
/// only from the generated `EVENT` constant (`DashboardEvents`).
enum DashboardScript {
    static let javaScript = "\"use strict\";\n" + DashboardEvents.javaScript + handWritten
        + DashboardQuestionsScript.javaScript + PairingPanel.javaScript

    static let handWritten = #"""
        const $ = (selector) => document.querySelector(selector);
        function el(tag, attrs, ...children) {
          const node = document.createElement(tag);
          for (const [key, value] of Object.entries(attrs || {})) {
            if (value === null || value === undefined || value === false) continue;
            if (key === "class") node.className = value;
            else if (key === "style") {
              // Through the CSSOM: the page's Content-Security-Policy refuses inline style attributes.
              for (const part of value.split(";")) {
                const colon = part.indexOf(":");
                if (colon > 0) node.style.setProperty(part.slice(0, colon).trim(), part.slice(colon + 1).trim());
              }
            }
            else if (key.startsWith("data-")) node.setAttribute(key, String(value));
            else node[key] = value;
          }
          for (const child of children.flat()) {
            if (child === null || child === undefined || child === false) continue;
            node.append(child instanceof Node ? child : document.createTextNode(String(child)));
          }
          return node;
        }
        const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
        const surfaceOf = (content, name) => content.surfaces.find((s) => s.surface === name);

        let refreshTimer = null;
        let soonTimer = null;

        async function refresh() {
          clearTimeout(refreshTimer);
          try {
            const response = await fetch("/dashboard/snapshot", { credentials: "same-origin", cache: "no-store" });
            if (response.status === 401) return showSignedOut();
            const snapshot = await response.json();
            render(snapshot);
            document.body.dataset.ready = "1";
            refreshTimer = setTimeout(refresh, snapshot.refreshAfterSeconds * 1000 + 50);
          } catch (error) {
            refreshTimer = setTimeout(refresh, 5000);
          }
        }
        // A log line can come a moment before the state it describes is committed: look twice.
        let lateTimer = null;
        function refreshSoon() {
          clearTimeout(soonTimer);
          clearTimeout(lateTimer);
          soonTimer = setTimeout(refresh, 250);
          lateTimer = setTimeout(refresh, 1500);
        }

        function showSignedOut() {
          $("#devices").replaceChildren(el("p", { class: "empty" },
            "Not signed in. Open the one-time login link that `lfg serve` printed when it started."));
        }

        function render(snapshot) {
          const watcher = $("#watcher");
          watcher.className = "pill " + (snapshot.watcher.enabled ? "pill-on" : "pill-muted");
          watcher.textContent = snapshot.watcher.enabled ? "Watcher pushing" : "Watcher silent: " + (snapshot.watcher.reason || "off");
          watcher.title = snapshot.watcher.reason || "The watcher pushes to APNs";
          const lost = snapshot.watcher.decisionLogUnwrittenLines;
          const logHealth = $("#log-health");
          logHealth.hidden = !lost;
          logHealth.textContent = lost ? `Decision log: ${plural(lost, "line")} not written` : "";
          const devices = snapshot.devices.map(renderDevice);
          $("#devices").replaceChildren(...(devices.length ? devices
            : [el("p", { class: "empty" }, "No phone has registered yet. Devices appear when the app reports a token.")]));
          renderSessions(snapshot.sessions);
          renderTokens(snapshot.tokens);
          renderQuestions(snapshot.questions || []);
        }

        function renderDevice(device) {
          const content = device.card && device.card.content;
          const head = el("div", { class: "device-head" },
            el("span", { class: "device-name" }, device.deviceId),
            device.env && el("span", { class: "tag" }, device.env),
            device.card ? el("span", { class: "tag ok" },
              `${device.card.origin === "pushToStart" ? "push-started" : "adopted"} · ${device.card.startedLabel} ago`)
              : el("span", { class: "tag" }, "no card"),
            el("span", { class: "tag" }, `${plural(device.tokenCounts.pushToStart, "push-to-start token")} · ${plural(device.tokenCounts.update, "update token")}`),
            device.card && device.tokenCounts.update === 0
              && el("span", { class: "tag warn", title: "Updates cannot reach this card until the phone registers its token" },
                "no update token: the card may be frozen"),
            device.veto && el("span", { class: "tag warn" }, `start vetoed for ${device.veto.join(", ")}`),
            el("span", { class: "tag" + (device.privacy.isOn ? " ok" : ""), "data-privacy": device.privacy.isOn ? "on" : "off",
              "data-sealed": device.privacy.sealKey ? "1" : "0" }, device.privacy.text));
          const warnings = device.uncertainty || [];
          const attrs = { class: "device" + (warnings.length ? " is-uncertain" : ""), "data-device-id": device.deviceId,
            "data-has-card": content ? "1" : "0", "data-uncertain": warnings.map((w) => w.kind).join(" ") };
          // What the server last sent is not necessarily what the phone shows: say so, and still draw it.
          const uncertain = warnings.length > 0 && el("div", { class: "uncertain", role: "status" },
            el("strong", {}, "The phone may not show this card."), ...warnings.map((w) => el("div", {}, w.text)));
          if (!content) {
            const message = device.card ? "Card adopted; waiting for its first update" : "No card on this phone";
            return el("section", attrs, head, uncertain, el("div", { class: "nocard" }, message));
          }
          const style = `--accent:${content.accent}`;
          const lock = surfaceOf(content, "lockScreen");
          const expanded = surfaceOf(content, "islandExpanded");
          const compact = surfaceOf(content, "islandCompact");
          return el("section", attrs, head, uncertain,
            el("div", { class: "surfaces", style },
              column("Lock Screen", el("div", { class: "lock", "data-surface": "lockScreen", "data-opens": lock.opensSession },
                cardHead(lock), questionOnCard(lock), rows(lock), overflow(lock))),
              column("Dynamic Island · expanded", el("div", { class: "island-expanded", "data-surface": "islandExpanded" },
                el("div", { class: "card-head" }, el("span", { class: "total" }, lock.activeTotal, el("small", {}, "Active")),
                  counts(expanded), el("span", { class: "dot" })),
                questionOnCard(expanded), rows(expanded), overflow(expanded))),
              column("Compact · Minimal", el("div", { class: "islands-small" },
                el("div", { class: "island-compact", "data-surface": "islandCompact" }, el("span", { class: "dot" }),
                  el("span", { class: "total-small" }, compact.activeTotal)),
                el("div", { class: "island-minimal", "data-surface": "islandMinimal" }, el("span", { class: "dot" }))))));
        }
        const column = (label, surface) => el("div", { class: "surface-col" },
          el("span", { class: "surface-label" }, label), el("div", { class: "wallpaper" }, surface));
        const cardHead = (surface) => el("div", { class: "card-head" },
          el("span", { class: "total" }, surface.activeTotal, el("small", {}, "Active")), counts(surface));
        const counts = (surface) => el("span", { class: "counts" },
          el("span", { class: "count working", "data-count": "working" }, el("i"), surface.working),
          el("span", { class: "count needs", "data-count": "needsInput" }, el("i"), surface.needsInput));
        const rows = (surface) => surface.wordless ? el("div", { class: "rows wordless", "data-wordless": "1" },
            el("div", { class: "row" }, el("span", { class: "title" }, surface.wordless.headline)),
            el("div", { class: "row-line" }, surface.wordless.guidance))
          : el("div", { class: "rows" }, surface.rows.map((row) =>
          el("div", { class: "row", "data-sid": row.sid, "data-state": row.state },
            el("i"), el("span", { class: "title" }, row.title || row.sid,
              row.line ? el("span", { class: "row-line" }, " · " + row.line) : ""),
            el("span", { class: "elapsed" }, row.elapsed))));
        const overflow = (surface) => surface.overflowText && el("div", { class: "overflow" }, surface.overflowText);

        function renderSessions(sessions) {
          const active = sessions.filter((s) => s.displayState === "working" || s.displayState === "noNews" || s.displayState === "needsInput").length;
          $("#sessions-summary").textContent = `${plural(sessions.length, "session")}, ${active} active`;
          const body = sessions.map((s) => el("tr", { "data-sid": s.sid },
            el("td", {}, el("span", { class: `state state-${s.displayState}` }, el("i"), label(s.displayState))),
            el("td", {}, el("div", {}, s.title || "(untitled)"), el("div", { class: "mono muted" }, s.sid + (s.step ? ` · ${s.step}` : ""))),
            el("td", {}, s.host, s.isHostDown && el("span", { class: "down" }, "DOWN")),
            el("td", { class: "mono muted" }, s.cwd)));
          $("#sessions tbody").replaceChildren(...(body.length ? body : [el("tr", {}, el("td", { class: "muted", colSpan: 4 }, "No sessions reported."))]));
        }
        const label = (state) => ({ needsInput: "needs input", working: "working", noNews: "no news", blocked: "blocked", idle: "idle", unknown: "unknown" })[state] || state;

        function renderTokens(tokens) {
          const body = tokens.map((t) => el("tr", {},
            el("td", {}, t.deviceId), el("td", {}, t.kind === "pushToStart" ? "push-to-start" : "update"),
            el("td", {}, t.env), el("td", { class: "mono" }, t.token + "…"), el("td", { class: "muted" }, t.ageLabel)));
          $("#tokens tbody").replaceChildren(...(body.length ? body : [el("tr", {}, el("td", { class: "muted", colSpan: 5 }, "No tokens registered."))]));
        }

        const timeline = $("#timeline");
        function describe(line) {
          const token = line.token ? `${line.token}…` : "";
          const channel = line.channel ? `channel ${line.channel}…` : "";
          const answer = () => [el("span", { class: line.status === 200 ? "good" : "bad" },
            `${line.status}${line.reason ? " " + line.reason : ""}`), line.ms !== undefined ? ` · ${Math.round(line.ms)} ms` : ""];
          switch (line.event) {
            case EVENT.decide: return [`${line.action} to ${line.channel ? channel : plural(line.tokens || 0, "token")}`
              + `${line.priority ? " at priority " + line.priority : ""}${line.purpose ? " (" + line.purpose + ")" : ""}`
              + ` · ${line.working || 0} working, ${line.needsInput || 0} needs input`
              + (line.rows && line.rows.length ? ` · ${line.rows.join(" ")}` : "")];
            case EVENT.send: return [`${line.action} → ${token} ${line.env || ""} · `, ...answer()];
            case EVENT.broadcast: return [`${line.action} → ${channel} ${line.env || ""} · `, ...answer()];
            case EVENT.alert: return [`${line.action === "withdraw" ? "withdraw " : ""}question ${line.questionId} (${line.sid}) → ${token} ${line.env || ""} · `, ...answer()];
            case EVENT.adopted: return [line.channel ? `card adopted on ${channel}` : `card adopted through update token ${token} ${line.env || ""}`];
            case EVENT.clientEnded: return ["the phone ended its card"];
            case EVENT.startVetoed: return [`start refused: every active session is in the veto (${(line.veto || []).join(", ")})`];
            case EVENT.startHeld: return [`start held up to ${line.graceSeconds} s for the open app's own card`];
            case EVENT.tokenPruned: return [`${line.kind || ""} token ${token} ${line.status ? "pruned after " + line.status : "forgotten"}${line.reason ? " " + line.reason : ""}`];
            case EVENT.partial: case EVENT.noneAccepted:
              return [`${line.action}: ${line.accepted ?? 0} of ${line.attempted ?? "?"} accepted; re-sends next tick`];
            case EVENT.noTokens: return [`${line.action} due, but no ${line.action === "start" ? "push-to-start" : "update"} token`];
            case EVENT.channelCreated: return [`${channel} created ${line.env || ""}`];
            case EVENT.channelDeleted: return [`${channel} deleted ${line.env || ""}`];
            case EVENT.channelFailed: return [`channel ${line.operation || ""} ${line.channel ? line.channel + "… " : ""}failed ${line.env || ""} · `, ...answer(),
              line.fallback ? ` · falls back to ${line.fallback} mode` : "", line.retryAt ? " · retries later" : ""];
            case EVENT.renewed: return [`card renewed after ${Math.round((line.ts - (line.oldStartedAt || line.ts)) / 60)} min (${line.mode} mode${line.oldEnded ? ", old card ended" : ""})`];
            case EVENT.cardExpired: return [`card reached iOS's 8-hour limit after ${Math.round((line.ts - (line.startedAt || line.ts)) / 60)} min and was forgotten`];
            case EVENT.questionAnswered: return [`question ${line.questionId} (${line.sid}) answered by ${line.answeredBy}`];
            case EVENT.questionCancelled: return [`question ${line.questionId} (${line.sid}) cancelled${line.answeredBy ? " (answered at the " + line.answeredBy + ")" : ""}`];
            case EVENT.questionExpired: return [`question ${line.questionId} (${line.sid}) expired`];
            default: return [JSON.stringify(line)];
          }
        }
        function addLine(line, isFresh) {
          const time = new Date(line.ts * 1000).toLocaleTimeString([], { hour12: false });
          const item = el("li", { class: isFresh ? "fresh" : "", "data-event": line.event },
            el("span", { class: "mono muted" }, time), el("span", { class: "mono" }, line.deviceId || ""),
            el("span", { class: `ev ev-${line.event}` }, line.event), el("span", {}, ...describe(line)));
          timeline.prepend(item);
          while (timeline.children.length > 300) timeline.lastChild.remove();
        }

        async function loadLog() {
          try {
            const response = await fetch("/api/log?limit=200", { credentials: "same-origin", cache: "no-store" });
            if (!response.ok) return;
            const body = await response.json();
            for (const line of body.lines) addLine(line, false);
          } catch (error) { /* the live stream still fills the timeline */ }
        }

        function follow() {
          const live = $("#live");
          const events = new EventSource("/api/events");
          events.onopen = () => { live.classList.add("on"); live.lastChild.textContent = "live"; };
          events.onerror = () => { live.classList.remove("on"); live.lastChild.textContent = "reconnecting"; };
          events.addEventListener("log", (event) => { addLine(JSON.parse(event.data), true); refreshSoon(); });
          events.addEventListener("session", refreshSoon);
          events.addEventListener("question", refreshSoon);
        }

        function tickClock() { $("#clock").textContent = new Date().toLocaleTimeString([], { hour12: false }); }
        setInterval(tickClock, 1000);
        tickClock();
        loadLog().then(follow);
        refresh();
        """#
}
