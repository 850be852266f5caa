//! Lanes retired off the caller's path, and spare lanes built there.
//!
//! Dropping a lane frees its instances, which resets every linear memory the call dirtied
//! (a `memset` of the pages kept resident, an `madvise` of the rest): after a call that moved a
//! 10 MB file that is milliseconds the caller would otherwise wait for after its answer exists.
//! Host resources are not part of that: they end inline, with the call, as callers expect (a
//! process the call left running is signalled before the answer returns).

use super::spares::Order;
use crate::lane::Lane;
use crate::off_path::OffPath;
use wasmtime::Store;

/// Lanes waiting to be dropped; past this the caller drops its own, so a burst of calls
/// cannot pile up instance slots that are no longer used.
const BACKLOG: usize = 4;
/// Lanes whose memories grew less than this drop inline when no spare is ordered: their reset
/// costs microseconds, and their slots are free again the moment the call returns (a small
/// pool may need them next).
const RETIRE_ABOVE: usize = 1 << 20;

/// A finished lane, and the spare to build once it is gone (its slots are reused).
struct Retired {
    lane: Store<Lane>,
    spare: Option<Order>,
}

fn settle(retired: Retired) {
    drop(retired.lane);
    if let Some(order) = retired.spare {
        order.fill();
    }
}

pub struct Retirement {
    lanes: OffPath<Retired>,
}

impl Retirement {
    pub fn start() -> Self {
        Self {
            lanes: OffPath::start_with("seam-retire", BACKLOG, settle),
        }
    }

    /// Ends `store`'s host resources now and its instances now or soon: soon after a call that
    /// moved bulk data, or when a spare lane is ordered (then built after the drop).
    pub(crate) fn retire(&self, mut store: Store<Lane>, spare: Option<Order>) {
        if spare.is_none() && store.data().grown() < RETIRE_ABOVE {
            return;
        }
        drop(std::mem::take(&mut store.data_mut().table));
        self.lanes.drop_later(Retired { lane: store, spare });
    }
}
