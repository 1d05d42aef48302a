import ControlPlane

/// The dashboard's questions: lists the snapshot's pending questions and answers them through
/// `POST /api/questions/{id}/answer`, as a second device would (device id `dashboard`). A cookie-signed
/// page must send the CSRF header with the CSRF cookie's value; both names come from the server's own
/// constants (`AUTH`), so the page cannot drift from what `Authenticator` checks.
enum DashboardQuestionsScript {
    static var javaScript: String { constants + handWritten }

    /// The names the script shares with the server.
    static var constants: String {
        """
        const AUTH = Object.freeze({ csrfCookie: "\(Authenticator.csrfCookieName)", csrfHeader: "\(Authenticator.csrfHeader)" });
        const DASHBOARD_DEVICE = "\(DashboardSnapshot.answeringDeviceID)";

        """
    }

    static let handWritten = #"""
        function cookieValue(name) {
          const entry = document.cookie.split("; ").find((part) => part.startsWith(name + "="));
          return entry ? decodeURIComponent(entry.slice(name.length + 1)) : "";
        }

        // What the person last saw for each question (kept across redraws until the question leaves the list).
        const answerStatus = new Map();

        async function answerQuestion(id, answer) {
          answerStatus.set(id, "Sending…");
          refreshQuestionStatus(id);
          let text;
          try {
            const response = await fetch(`/api/questions/${encodeURIComponent(id)}/answer`, {
              method: "POST", credentials: "same-origin", cache: "no-store",
              headers: { "Content-Type": "application/json", [AUTH.csrfHeader]: cookieValue(AUTH.csrfCookie) },
              body: JSON.stringify({ answer, deviceId: DASHBOARD_DEVICE }) });
            const body = await response.json().catch(() => ({}));
            if (response.ok) text = `Answered: ${body.answer}`;
            else if (response.status === 409) text = body.state === "answered"
              ? `Already answered by ${body.answeredBy === "terminal" ? "the terminal" : body.answeredBy}: ${body.answer}`
              : `Already ${body.state}`;
            else text = `Not sent: ${body.error || "the server answered " + response.status}`;
          } catch (error) {
            text = "Not sent: the server could not be reached";
          }
          answerStatus.set(id, text);
          refreshQuestionStatus(id);
          refreshSoon();
        }

        function refreshQuestionStatus(id) {
          const node = document.querySelector(`.question[data-question-id="${CSS.escape(id)}"] .question-status`);
          if (node) node.textContent = answerStatus.get(id) || "";
        }

        function renderQuestions(questions) {
          $("#questions-summary").textContent = questions.length
            ? `${plural(questions.length, "question")} waiting; an answer here counts as the device "${DASHBOARD_DEVICE}"`
            : "Nothing is waiting for an answer.";
          for (const id of [...answerStatus.keys()]) if (!questions.some((q) => q.id === id)) answerStatus.delete(id);
          $("#questions").replaceChildren(...questions.map((q) => {
            const controls = q.takesText ? textAnswer(q) : el("div", { class: "answers" }, q.answers.map((answer, index) =>
              el("button", { class: "answer" + (index === 0 ? " primary" : ""), type: "button", "data-answer": answer,
                onclick: () => answerQuestion(q.id, answer) }, answer)));
            return el("div", { class: "question", "data-question-id": q.id, "data-kind": q.kind },
              el("div", { class: "question-head" }, el("span", { class: "tag" }, q.kind), el("strong", {}, q.title || q.sid),
                el("span", { class: "muted" }, `asked ${q.askedLabel} ago`
                  + (q.expiresInSeconds !== null && q.expiresInSeconds !== undefined ? ` · expires in ${Math.ceil(q.expiresInSeconds)} s` : ""))),
              el("div", { class: "question-text" }, q.text),
              controls,
              el("div", { class: "question-status", role: "status" }, answerStatus.get(q.id) || ""));
          }));
        }

        function textAnswer(q) {
          const input = el("input", { type: "text", class: "answer-text", placeholder: "Your answer", maxLength: 4000 });
          const send = () => { if (input.value.trim()) answerQuestion(q.id, input.value); };
          input.addEventListener("keydown", (event) => { if (event.key === "Enter") send(); });
          return el("div", { class: "answers" }, input, el("button", { class: "answer primary", type: "button", onclick: send }, "Send"));
        }

        // The card's question on a surface, as the phone draws it (line, and the Lock Screen's buttons).
        const questionOnCard = (surface) => surface.questionLine && el("div", { class: "card-question" },
          el("div", { class: "card-question-line" }, surface.questionLine),
          surface.questionButtons.length > 0 && el("div", { class: "card-question-buttons" },
            surface.questionButtons.map((label, index) => el("span", { class: "card-button" + (index === 0 ? " primary" : "") }, label))));
        """#

    /// The questions' rules, appended to the stylesheet.
    static let css = #"""
        .questions { display:flex; flex-direction:column; gap:10px; }
        .question { background:var(--panel-2); border:1px solid rgba(255,159,10,.30); border-radius:12px; padding:12px 14px; }
        .question-head { display:flex; align-items:baseline; gap:10px; flex-wrap:wrap; }
        .question-text { margin:6px 0 10px; font-size:14px; white-space:pre-wrap; }
        .answers { display:flex; gap:8px; flex-wrap:wrap; }
        .answer { font:inherit; font-size:13px; font-weight:600; padding:6px 14px; border-radius:8px; cursor:pointer;
          border:1px solid var(--line); background:#23232b; color:var(--text); }
        .answer.primary { background:rgba(48,209,88,.14); border-color:rgba(48,209,88,.45); color:var(--green); }
        .answer-text { font:inherit; font-size:13px; padding:6px 10px; border-radius:8px; border:1px solid var(--line);
          background:#101015; color:var(--text); min-width:320px; }
        .question-status { margin-top:8px; color:var(--muted); font-size:12.5px; min-height:1em; }
        .card-question { margin:2px 0 6px; }
        .card-question-line { color:var(--amber); font-weight:650; font-size:13px; white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
        .card-question-buttons { display:flex; gap:8px; margin-top:5px; }
        .card-button { flex:1; text-align:center; font-size:12px; font-weight:650; padding:4px 0; border-radius:8px; background:#2a2a33; }
        .card-button.primary { background:rgba(48,209,88,.22); color:var(--green); }
        """#
}
