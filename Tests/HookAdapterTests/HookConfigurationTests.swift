import HookAdapter
import Testing

@Suite("Where the hook reports, and with which token")
struct HookConfigurationTests {
    static func resolve(_ environment: [String: String], files: [String: String] = [:], hostName: String? = nil) -> HookConfiguration {
        HookConfiguration.resolve(environment: environment, hostName: hostName) { files[$0] }
    }

    @Test("Defaults: ~/.lfg, the local control plane, the generated token file")
    func defaults() {
        let configuration = Self.resolve(["HOME": "/home/u"], files: ["/home/u/.lfg/auth-token": "abc123\n"])
        #expect(configuration == HookConfiguration(
            home: "/home/u/.lfg", url: "http://127.0.0.1:8766", token: "abc123", tokenSource: "/home/u/.lfg/auth-token"))
    }

    @Test("Reports name this machine by its host name unless LFG_HOST says otherwise; `local` only when it has none")
    func hostName() {
        #expect(Self.resolve(["LFG_HOME": "/h"], hostName: "eugenes-mac").host == "eugenes-mac")
        #expect(Self.resolve(["LFG_HOME": "/h", "LFG_HOST": "ci"], hostName: "eugenes-mac").host == "ci")
        #expect(Self.resolve(["LFG_HOME": "/h"], hostName: "").host == .local)
    }

    @Test("A token is described by at most its first 4 characters and where it came from")
    func tokenDescription() {
        let fromFile = Self.resolve(["LFG_HOME": "/h"], files: ["/h/auth-token": "9f3a77c0ffee\n"])
        #expect(fromFile.tokenDescription == "token 9f3a… from /h/auth-token")
        let fromDotEnv = Self.resolve(["LFG_HOME": "/h"], files: ["/h/.env": "LFG_AUTH_TOKEN=abcdef123\n"])
        #expect(fromDotEnv.tokenDescription == "token abcd… from LFG_AUTH_TOKEN in /h/.env")
        let fromEnvironment = Self.resolve(["LFG_HOME": "/h", "LFG_AUTH_TOKEN": "zz"])
        #expect(fromEnvironment.tokenDescription == "token z… from LFG_AUTH_TOKEN in the environment")
        #expect(Self.resolve(["LFG_HOME": "/h"]).tokenDescription.hasPrefix("no token"))
    }

    @Test("The environment wins over $LFG_HOME/.env, which wins over the defaults")
    func precedence() {
        let dotEnv = "# comment\nexport LFG_URL=\"http://10.0.0.2:9000/\"\nLFG_AUTH_TOKEN='fromfile'\nLFG_HOST=mac\n"
        let fromDotEnv = Self.resolve(["LFG_HOME": "/h"], files: ["/h/.env": dotEnv, "/h/auth-token": "generated"])
        #expect(fromDotEnv == HookConfiguration(
            home: "/h", url: "http://10.0.0.2:9000", token: "fromfile", tokenSource: "LFG_AUTH_TOKEN in /h/.env", host: "mac"))
        let fromEnvironment = Self.resolve(["LFG_HOME": "/h", "LFG_URL": "http://x:1", "LFG_AUTH_TOKEN": "env"], files: ["/h/.env": dotEnv])
        #expect(fromEnvironment.url == "http://x:1")
        #expect(fromEnvironment.token == "env")
    }

    @Test("No token anywhere is no token, not an empty one")
    func noToken() {
        #expect(Self.resolve(["LFG_HOME": "/h"], files: ["/h/auth-token": " \n"]).token == nil)
    }

    @Test(
        "The time budget defaults to half a second and LFG_HOOK_BUDGET_MS moves it within 50 ms to 10 s",
        arguments: [(nil, 0.5), ("2000", 2.0), ("1", 0.05), ("999999", 10.0), ("soon", 0.5)] as [(String?, Double)])
    func timeBudget(setting: String?, seconds: Double) {
        var environment = ["LFG_HOME": "/h"]
        environment["LFG_HOOK_BUDGET_MS"] = setting
        let configuration = Self.resolve(environment)
        #expect(configuration.timeBudget == seconds)
        #expect(configuration.requestTimeout < configuration.timeBudget)
    }
}
