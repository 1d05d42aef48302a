import HookAdapter
import Testing

@Suite("Where the hook reports, and with which token")
struct HookConfigurationTests {
    static func resolve(_ environment: [String: String], files: [String: String] = [:]) -> HookConfiguration {
        HookConfiguration.resolve(environment: environment) { files[$0] }
    }

    @Test("Defaults: ~/.lfg, the local control plane, the generated token file")
    func defaults() {
        let configuration = Self.resolve(["HOME": "/home/u"], files: ["/home/u/.lfg/auth-token": "abc123\n"])
        #expect(configuration == HookConfiguration(home: "/home/u/.lfg", url: "http://127.0.0.1:8766", token: "abc123"))
    }

    @Test("The environment wins over $LFG_HOME/.env, which wins over the defaults")
    func precedence() {
        let dotEnv = "# comment\nexport LFG_URL=\"http://10.0.0.2:9000/\"\nLFG_AUTH_TOKEN='fromfile'\nLFG_HOST=mac\n"
        let fromDotEnv = Self.resolve(["LFG_HOME": "/h"], files: ["/h/.env": dotEnv, "/h/auth-token": "generated"])
        #expect(fromDotEnv == HookConfiguration(home: "/h", url: "http://10.0.0.2:9000", token: "fromfile", host: "mac"))
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
