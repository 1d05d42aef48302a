import ControlPlane
import Foundation
import HTTPTypes
import QRCode

/// The dashboard's "Pair a phone" panel: the live pairing code as a QR code (the same code `lfg serve`
/// printed, until it is used or expires), a button for a new one, and the paired devices with a Revoke
/// button each. Owner-only like the rest of the dashboard.
enum PairingPanel {
    /// `GET /dashboard/pairing`: the current code's link, lifetime and QR code as SVG.
    static func response(_ grant: PairingGrant) -> HTTPResponse {
        struct Body: Encodable {
            var link: String
            var expiresAt: Double
            var expiresInSeconds: Int
            var svg: String
        }
        let svg: String
        do { svg = try QRMatrix(encoding: grant.link).svg() } catch {
            return .error(500, "the pairing QR code could not be drawn: \(error)")
        }
        var response = HTTPResponse.json(
            Body(link: grant.link, expiresAt: grant.expiresAt, expiresInSeconds: grant.expiresInSeconds, svg: svg))
        response.headers.append(("Cache-Control", "no-store"))
        return response
    }

    static let html = #"""
        <section class="block" id="pairing">
          <div class="block-head"><h2>Pair a phone</h2><p>Scan with the LFG app, or paste the link. A code works once, for 10 minutes.</p></div>
          <div class="pairing">
            <div class="pairing-code"><img id="pairing-qr" alt="Pairing QR code" width="180" height="180">
              <code id="pairing-link"></code><p id="pairing-expiry" class="empty"></p>
              <button id="pairing-new" type="button">New code</button></div>
            <table class="table" id="paired"><thead><tr><th>Device</th><th>Paired</th><th>State</th><th></th></tr></thead><tbody></tbody></table>
          </div>
        </section>
        """#

    static let css = """
        .pairing { display:flex; gap:28px; align-items:flex-start; flex-wrap:wrap; }
        .pairing-code { display:flex; flex-direction:column; gap:8px; max-width:260px; }
        .pairing-code img { background:#fff; border-radius:8px; }
        .pairing-code code { font-size:11px; word-break:break-all; color:var(--muted); }
        #paired { flex:1; min-width:320px; }
        """

    /// Paints the panel; writes carry the anti-forgery header (names from `DashboardQuestionsScript.AUTH`).
    static let javaScript = #"""
        // AUTH and cookieValue come from the questions script, which runs first.
        const csrfHeader = () => ({ [AUTH.csrfHeader]: cookieValue(AUTH.csrfCookie) });
        async function refreshPairing() {
          try {
            const response = await fetch("/dashboard/pairing", { credentials: "same-origin", cache: "no-store" });
            if (!response.ok) return;
            const code = await response.json();
            $("#pairing-qr").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(code.svg);
            $("#pairing-link").textContent = code.link;
            $("#pairing-expiry").textContent = "expires " + new Date(code.expiresAt * 1000).toLocaleTimeString();
            setTimeout(refreshPairing, Math.max(5, code.expiresInSeconds) * 1000);
          } catch (error) {
            setTimeout(refreshPairing, 5000);
          }
          refreshPaired();
        }
        async function refreshPaired() {
          const response = await fetch("/api/paired-devices", { credentials: "same-origin", cache: "no-store" });
          if (!response.ok) return;
          const { devices } = await response.json();
          const rows = devices.map((device) => el("tr", {},
            el("td", {}, device.name, el("div", { class: "empty" }, device.credentialId)),
            el("td", {}, new Date(device.createdAt * 1000).toLocaleString()),
            el("td", {}, device.revokedAt ? "revoked " + new Date(device.revokedAt * 1000).toLocaleString() : "active"),
            el("td", {}, device.revokedAt ? null : el("button", { type: "button", onclick: () => revoke(device.credentialId) }, "Revoke"))));
          $("#paired tbody").replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { class: "empty" }, "No paired devices yet."))]));
        }
        async function revoke(id) {
          await fetch("/api/paired-devices/" + encodeURIComponent(id), { method: "DELETE", credentials: "same-origin", headers: csrfHeader() });
          refreshPaired();
        }
        $("#pairing-new").addEventListener("click", async () => {
          await fetch("/api/pairing-codes", { method: "POST", credentials: "same-origin", headers: csrfHeader() });
          refreshPairing();
        });
        refreshPairing();

        """#
}
