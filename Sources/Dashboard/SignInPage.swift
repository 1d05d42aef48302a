import Foundation
import HTTPTypes

/// The page a browser gets at `/` without a session: paste the token, or use a one-time link from
/// `lfg login-link`. It is served without auth and shows nothing of the fleet.
public struct SignInPage: HTTPHandler {
    public init() {}

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        let asset: (type: String, body: String)
        switch request.path {
        case "/", "/index.html": asset = ("text/html; charset=utf-8", Self.html)
        case "/signin.js": asset = ("text/javascript; charset=utf-8", Self.script)
        default:
            return .error(401, "sign in first: open / in a browser, or send Authorization: Bearer <token from $LFG_HOME/auth-token>")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.error(405, "method not allowed here; use GET")
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", asset.type)] + DashboardRoutes.pageHeaders,
            body: .bytes(Data(asset.body.utf8)))
    }

    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>LFG: sign in</title>
        <meta name="viewport" content="width=device-width, initial-scale=1"></head>
        <body style="font-family: system-ui, sans-serif; max-width: 34em; margin: 3em auto; line-height: 1.5">
        <h1>LFG dashboard: sign in</h1>
        <form id="signin">
        <p><label for="token">Paste the token from <code>$LFG_HOME/auth-token</code> (or <code>LFG_AUTH_TOKEN</code>):</label><br>
        <input id="token" type="password" autocomplete="off" size="66" required></p>
        <p><button type="submit">Sign in</button> <span id="problem" role="alert"></span></p>
        </form>
        <p>Or run <code>lfg login-link</code> on the machine that runs <code>lfg serve</code>: it prints a one-time
        link that signs this browser in, without restarting the server.</p>
        <p>A sign-in lasts 12 hours, or until the server restarts.</p>
        <script src="/signin.js"></script>
        </body></html>
        """

    static let script = """
        document.getElementById("signin").addEventListener("submit", async (event) => {
          event.preventDefault();
          const problem = document.getElementById("problem");
          problem.textContent = "";
          const response = await fetch("/login", {
            method: "POST", headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ token: document.getElementById("token").value.trim() }),
          });
          if (response.ok) { location.reload(); return; }
          const body = await response.json().catch(() => ({}));
          problem.textContent = body.error || ("sign-in failed: HTTP " + response.status);
        });
        """
}
