// A deliberately wrong type: `padding` takes a CGFloat length, not a String. Must FAIL the type-check.
// expect-error: cannot convert value of type 'String' to expected argument type 'CGFloat'
import SwiftUI

struct FixtureView: View {
    var body: some View {
        Text("fleet").padding("wide")
    }
}
