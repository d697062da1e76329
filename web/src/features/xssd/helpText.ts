// Short explanations for the X-SSD views (shown by ChartPanel's ⓘ toggle).
// Paragraphs are separated by a blank line.
export const XssdHelp = {
  ring:
    'The fast side of an X-SSD: the host writes its log straight into a ring in the controller memory buffer ' +
    '(CMB), byte by byte over PCIe, instead of sending block writes. Arriving bytes wait in a small intake queue, ' +
    'then land in the ring; a byte counts as persistent once it is in the ring (capacitors keep the ring alive ' +
    'through a power loss).\n\n' +
    'The band is the ring, clockwise from the top. The host tail (orange mark) is how far the host has written; ' +
    'the credit counter (blue mark) is how far the ring holds the stream without a gap; the destage head (green ' +
    'mark) is how far the stream is on flash. Between the counter and the tail: bytes in flight (orange); between ' +
    'the head and the counter: bytes persisted in the ring, waiting to be destaged (blue). A full ring makes the ' +
    'host wait (ring-full waits). Inner bands are the secondaries\u2019 rings when the log is replicated.',
  credit:
    'Top: the host tail, the credit counter and the destaged position over time (bytes of the log stream). The ' +
    'points are the counter values the host read: it reads the counter to learn how much it may still write.\n\n' +
    'Bottom: the credits each read left the host, queue size − (bytes written − counter read). The host may write ' +
    'as much as its credits without asking again; when they run low it waits and reads again. Points at the top ' +
    'line mean the device kept up; points near zero mean the host was throttled (back-pressure).',
  destage:
    'The device copies the ring to flash by itself, one flash page at a time, into a ring of logical pages ' +
    '(device.xssd.destage.ring_pages) reserved at the end of the logical space. Each cell is a slot of that ' +
    'ring, in order, row by row; the outlined cell is the head, where the next page goes.\n\n' +
    'Orange: the page is being programmed. Green: on flash, fading with age. Yellow: the newest page there was ' +
    'padded with filler, because the log did not fill a page before the latency threshold ' +
    '(device.xssd.destage.latency_threshold_ns). Below: the destage throughput per interval, log bytes and filler.',
  links:
    'With replication, the primary mirrors every write into the CMB to each secondary over its own link (NTB ' +
    'over PCIe). Each secondary persists the stream in its own ring and now and then reports its credit counter ' +
    'back; the primary keeps that copy as a shadow counter. With eager replication the counter the host reads ' +
    'is the slowest shadow, so a write is acknowledged only once every secondary has it.\n\n' +
    'Each row is a link with the bytes mirrored to it and drained to its flash, and the secondary\u2019s counter ' +
    'against its shadow on the primary. The chart shows both over time, with the primary\u2019s counter in grey; red ' +
    'stretches are times a link was down (the status register\u2019s bit for that secondary). A dropped secondary ' +
    'no longer holds the host back.',
  delay:
    'How long it took from a write reaching the primary until the primary\u2019s shadow counter covered it: the ' +
    'link latency there and back plus the wait for the secondary\u2019s next counter update ' +
    '(update_period_ns). Frequent updates narrow the spread but take link bandwidth (the share is shown under ' +
    'the links). Lines mark the median (p50) and p99 of all replicated writes.',
  crash:
    'What the fast side does when the power fails. (1) Power loss: the host saw the counter up to here; bytes ' +
    'still in the intake queue are lost. (2) On capacitor power the device destages the whole ring to flash, ' +
    '(3) stopping at the first gap, since bytes that arrived beyond a missing one cannot be trusted (the counter ' +
    'stops there too). (4) After the reboot the conventional side finds the durable end of the stream, and (5) ' +
    'the database can read the tail back.\n\n' +
    'The bar shows the stream around the crash: what was acknowledged to the host, what was recovered beyond ' +
    'it (the extra tail: persisted, but the host had not yet seen it acknowledged) and what was dropped. Nothing ' +
    'acknowledged may be lost; the report says so.',
  dblog:
    'A database\u2019s log writer: workers run transactions that each produce a log record; a flusher gathers ' +
    'them into groups and commits each group (to the fast side, over NVMe to the conventional side, or nowhere ' +
    'as an upper bound). A transaction\u2019s commit latency runs from its end to its group being persistent. An ' +
    'fsync error is a commit the device refused, for example while a replication link was down.',
  commits:
    'Group commits over time: transactions committed per second in each interval (bars) and the mean time to ' +
    'flush a group (points, right axis). Hover a bar for the interval\u2019s groups, bytes and flush times.',
} as const;
