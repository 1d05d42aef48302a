import ControlPlane
import FleetCore
import Foundation

/// Reading many devices at once (an instance taking thousands over after a kill must not pay two round
/// trips per device): one statement for a batch's devices and tokens, one for their retired channels.
extension StoreTables {
    /// `account`'s devices whose id passes `filter` (an SQL condition on `device_id` over `values`, which
    /// bind from `?2`), with their tokens, read in one statement.
    public static func loadDevices(
        _ database: some SQLDatabase, account: AccountID, where filter: String, _ values: [SQLValue]
    ) throws(StoreError) -> [DeviceID: DeviceRecord] {
        let rows = AccountRows(database: database, account: account)
        var records: [DeviceID: DeviceRecord] = [:]
        let decoder = JSONDecoder()
        try rows.run(
            "SELECT devices.device_id, profile, card, veto, veto_logged, channel, retiring_card, "
                + "tokens.device_id, kind, env, hex, registered_at FROM devices LEFT JOIN tokens "
                + "ON tokens.account_id = devices.account_id AND tokens.device_id = devices.device_id "
                + "WHERE devices.account_id = ?1 AND devices.\(filter) ORDER BY devices.device_id, position",
            values
        ) { row throws(StoreError) in
            let deviceId = DeviceID(row.text(0))
            if records[deviceId] == nil { records[deviceId] = try device(row, decoder) }
            // The token columns start at 7, where `token` expects them at 0.
            let tokenColumns = ShiftedRow(base: row, offset: 7)
            if !tokenColumns.isNull(0), let token = token(tokenColumns) { records[deviceId]?.tokens.append(token) }
        }
        return records
    }

    /// `account`'s retired channels whose device passes `filter` (as in ``loadDevices(_:account:where:_:)``),
    /// in the order they were retired.
    public static func loadRetiredChannels(
        _ database: some SQLDatabase, account: AccountID, where filter: String, _ values: [SQLValue]
    ) throws(StoreError) -> [DeviceChannel] {
        var channels: [DeviceChannel] = []
        try AccountRows(database: database, account: account).run(
            "SELECT channel_id, env, device_id, created_at, hold_until FROM retired_channels WHERE account_id = ?1 "
                + "AND \(filter) ORDER BY position",
            values
        ) { row throws(StoreError) in channels.append(try retiredChannel(row)) }
        return channels
    }
}

/// A row read from column `offset` on, so a reader written for a statement of its own reads a joined one.
struct ShiftedRow: SQLRow {
    let base: any SQLRow
    let offset: Int32

    func text(_ column: Int32) -> String { base.text(column + offset) }
    func real(_ column: Int32) -> Double { base.real(column + offset) }
    func integer(_ column: Int32) -> Int64 { base.integer(column + offset) }
    func isNull(_ column: Int32) -> Bool { base.isNull(column + offset) }
}
