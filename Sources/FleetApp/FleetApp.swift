// The FleetApp module; see Package.swift for its place in the architecture.
