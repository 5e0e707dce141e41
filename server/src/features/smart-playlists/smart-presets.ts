/**
 * The smart playlists every user finds in their list at first (made at their first list of
 * smart playlists, once: a preset deleted stays deleted). Their rules are ordinary `.nsp` rules
 * the user may change. "This year" is the last 365 days: play counts are kept per song, not per
 * year, so the list holds the songs played within the year, the most played first.
 */
export const SMART_PRESETS: readonly { name: string; comment: string; rules: Record<string, unknown> }[] = [
  {
    name: 'Recently added',
    comment: 'Songs added in the last 30 days, newest first',
    rules: { all: [{ inTheLast: { dateAdded: 30 } }], sort: '-dateAdded', limit: 500 },
  },
  {
    name: 'Never played',
    comment: 'Songs you have not played yet',
    rules: { all: [{ is: { playCount: 0 } }], sort: 'random', limit: 500 },
  },
  {
    name: 'Liked but not played for 6 months',
    comment: 'Favourites you have not played in the last 182 days',
    rules: { all: [{ is: { loved: true } }, { notInTheLast: { lastPlayed: 182 } }], sort: 'random', limit: 500 },
  },
  {
    name: 'Most played this year',
    comment: 'Songs played in the last 365 days, the most played first',
    rules: { all: [{ inTheLast: { lastPlayed: 365 } }, { gt: { playCount: 0 } }], sort: '-playCount,-lastPlayed', limit: 100 },
  },
];
