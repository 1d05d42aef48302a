// The ES256OpenSSL module; see Package.swift for its place in the architecture.
