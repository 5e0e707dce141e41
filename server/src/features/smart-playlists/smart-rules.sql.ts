import { sql, type SQL } from 'drizzle-orm';
import { fieldsOf, type SmartCondition, type SmartFieldName, type SmartRule, type SmartRules, type SmartSortKey } from '@encore/common/smart-playlist.rules';

/**
 * Smart playlist rules as SQL. The songs' own columns, the viewer's plays, likes and ratings,
 * the sonic analysis and the music folders' paths are read in one query, so the database
 * filters, sorts and pages 50,000 songs without a row crossing into the process. Every value
 * of the rules is a bound parameter; the only text written into the statement is this file's.
 *
 * This module reads (never writes) the tables of library, listening, discovery and
 * music-folders by name: a smart playlist is a query over all of them, and asking each module
 * through its port for every song would move the whole collection out of the database per call.
 */

type Join = 'plays' | 'likes' | 'ratings' | 'analysis';

interface FieldSql {
  expression: SQL;
  join?: Join;
  /** An analysis feature: a number read out of the features' JSON. */
}

const feature = (name: string): SQL => sql`(a.features ->> ${sql.raw(`'${name}'`)})::float8`;

const FIELD_SQL: Record<SmartFieldName, FieldSql> = {
  title: { expression: sql`coalesce(s.title, s.display_name)` },
  artist: { expression: sql`s.artist` },
  albumArtist: { expression: sql`coalesce(s.album_artist, s.artist)` },
  album: { expression: sql`s.album` },
  genre: { expression: sql`s.genre` },
  year: { expression: sql`s.year` },
  trackNumber: { expression: sql`s.track_number` },
  discNumber: { expression: sql`s.disc_number` },
  compilation: { expression: sql`s.compilation` },
  dateAdded: { expression: sql`s.uploaded_at` },
  lastPlayed: { expression: sql`p.last_played_at`, join: 'plays' },
  playCount: { expression: sql`coalesce(p.play_count, 0)`, join: 'plays' },
  loved: { expression: sql`(l.user_id is not null)`, join: 'likes' },
  dateLoved: { expression: sql`l.created_at`, join: 'likes' },
  rating: { expression: sql`coalesce(r.rating, 0)`, join: 'ratings' },
  duration: { expression: sql`s.duration_seconds` },
  fileType: { expression: sql`lower(substring(s.file_name from '\\.([A-Za-z0-9]+)$'))` },
  codec: { expression: sql`s.codec` },
  bitrate: { expression: sql`s.bitrate` },
  sampleRate: { expression: sql`s.sample_rate` },
  size: { expression: sql`s.size` },
  // A music folder's song: its path below the folder; an upload: the name it had on the uploader's disk.
  filePath: { expression: sql`coalesce((select f.path from music_folder_files f where f.song_id = s.id limit 1), s.file_name)` },
  lyrics: { expression: sql`s.transcript` },
  hasLyrics: { expression: sql`(coalesce(s.transcript, '') <> '')` },
  bpm: { expression: feature('bpm'), join: 'analysis' },
  key: { expression: sql`(a.features ->> 'key')`, join: 'analysis' },
  mode: { expression: sql`(a.features ->> 'mode')`, join: 'analysis' },
  energy: { expression: feature('energy'), join: 'analysis' },
  brightness: { expression: feature('brightness'), join: 'analysis' },
  danceability: { expression: feature('danceability'), join: 'analysis' },
  // The analysis's decision point is 0.5 (analysis.contract.ts); a song not analysed is neither.
  vocals: { expression: sql`(${feature('vocalPresence')} >= 0.5)`, join: 'analysis' },
  instrumental: { expression: sql`(${feature('vocalPresence')} < 0.5)`, join: 'analysis' },
  loudness: { expression: feature('loudnessLufs'), join: 'analysis' },
};

const TEXT_FIELDS = new Set<SmartFieldName>(['title', 'artist', 'albumArtist', 'album', 'genre', 'fileType', 'codec', 'filePath', 'lyrics', 'key', 'mode']);
const DATE_FIELDS = new Set<SmartFieldName>(['dateAdded', 'lastPlayed', 'dateLoved']);
const BOOLEAN_FIELDS = new Set<SmartFieldName>(['compilation', 'loved', 'hasLyrics', 'vocals', 'instrumental']);

/** A LIKE pattern matching `value` literally (its % _ and \ escaped). */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

function conditionSql(condition: SmartCondition): SQL {
  const { expression } = FIELD_SQL[condition.field];
  const { operator, value } = condition;
  if (TEXT_FIELDS.has(condition.field)) {
    const text = sql`coalesce(${expression}, '')`;
    const literal = likeLiteral(String(value));
    switch (operator) {
      case 'is':
        return sql`lower(${text}) = lower(${String(value)}::text)`;
      case 'isNot':
        return sql`lower(${text}) <> lower(${String(value)}::text)`;
      case 'contains':
        return sql`${text} ilike ${`%${literal}%`}::text`;
      case 'notContains':
        return sql`${text} not ilike ${`%${literal}%`}::text`;
      case 'startsWith':
        return sql`${text} ilike ${`${literal}%`}::text`;
      case 'endsWith':
        return sql`${text} ilike ${`%${literal}`}::text`;
    }
  }
  if (BOOLEAN_FIELDS.has(condition.field)) {
    const wanted = operator === 'is' ? value === true : value !== true;
    return wanted ? sql`(${expression}) is true` : sql`(${expression}) is not true`;
  }
  if (DATE_FIELDS.has(condition.field)) {
    // Calendar days in UTC, as the rules write them.
    const day = sql`(${expression} at time zone 'UTC')::date`;
    switch (operator) {
      case 'inTheLast':
        return sql`${expression} >= now() - make_interval(days => ${value as number}::int)`;
      case 'notInTheLast':
        // Never (played, liked) is longer ago than any number of days, as Navidrome counts it.
        return sql`(${expression} is null or ${expression} < now() - make_interval(days => ${value as number}::int))`;
      case 'before':
        return sql`${day} < ${value as string}::date`;
      case 'after':
        return sql`${day} > ${value as string}::date`;
      case 'is':
        return sql`${day} = ${value as string}::date`;
      case 'isNot':
        return sql`${day} is distinct from ${value as string}::date`;
      case 'inTheRange': {
        const [from, to] = value as readonly [string, string];
        return sql`${day} between least(${from}::date, ${to}::date) and greatest(${from}::date, ${to}::date)`;
      }
    }
  }
  switch (operator) {
    case 'is':
      return sql`${expression} = ${value as number}::float8`;
    case 'isNot':
      return sql`${expression} is distinct from ${value as number}::float8`;
    case 'gt':
      return sql`${expression} > ${value as number}::float8`;
    case 'lt':
      return sql`${expression} < ${value as number}::float8`;
    case 'inTheRange': {
      const [from, to] = value as readonly [number, number];
      return sql`${expression} between least(${from}::float8, ${to}::float8) and greatest(${from}::float8, ${to}::float8)`;
    }
  }
  throw new Error(`No SQL for ${operator} on ${condition.field}`);
}

function ruleSql(rule: SmartRule): SQL {
  if (rule.kind === 'condition') return conditionSql(rule);
  if (rule.rules.length === 0) return rule.kind === 'all' ? sql`true` : sql`false`;
  return sql`(${sql.join(rule.rules.map(ruleSql), rule.kind === 'all' ? sql` and ` : sql` or `)})`;
}

function sortSql(keys: readonly SmartSortKey[], seed: string): SQL {
  const parts = keys.map((key) => {
    if (key.field === 'random') return sql`md5(s.id::text || ${seed}::text)`;
    const { expression } = FIELD_SQL[key.field];
    const value = TEXT_FIELDS.has(key.field) ? sql`lower(${expression})` : expression;
    return key.descending ? sql`${value} desc nulls last` : sql`${value} asc nulls last`;
  });
  return sql.join([...parts, sql`s.id`], sql`, `);
}

const JOIN_SQL: Record<Join, (viewerId: number) => SQL> = {
  plays: (viewerId) => sql` left join song_plays p on p.song_id = s.id and p.user_id = ${viewerId}::int`,
  likes: (viewerId) => sql` left join song_likes l on l.song_id = s.id and l.user_id = ${viewerId}::int`,
  ratings: (viewerId) => sql` left join song_ratings r on r.song_id = s.id and r.user_id = ${viewerId}::int`,
  analysis: () => sql` left join song_analyses a on a.song_id = s.id and a.status = 'analysed'`,
};

function joinsOf(rules: SmartRules, viewerId: number): SQL {
  const joins = new Set<Join>();
  for (const field of fieldsOf(rules)) {
    const join = field === 'random' ? undefined : FIELD_SQL[field].join;
    if (join) joins.add(join);
  }
  return sql.join(
    [...joins].map((join) => JOIN_SQL[join](viewerId)),
    sql``,
  );
}

/** How many songs the rules match for the viewer (before the rules' limit): no sort, one pass. */
export function matchCountSql(rules: SmartRules, viewerId: number): SQL {
  return sql`select count(*)::int as total from songs s${joinsOf(rules, viewerId)} where s.missing_since is null and ${ruleSql(rules.root)}`;
}

/**
 * A page of the songs the rules match for the viewer, in order, each row with how many match in
 * all (before the rules' limit). The count is a window over the matches, needing no sort; the
 * order with its LIMIT is a top-N sort, not a sort of every match. `limit` must be positive.
 */
export function matchingPageSql(rules: SmartRules, options: { viewerId: number; offset: number; limit: number; seed: string }): SQL {
  return sql`
    select s.id, count(*) over ()::int as total
    from songs s${joinsOf(rules, options.viewerId)}
    where s.missing_since is null and ${ruleSql(rules.root)}
    order by ${sortSql(rules.sort, options.seed)}
    limit ${options.limit}::int offset ${options.offset}::int`;
}

/**
 * How many songs the rules match for the viewer after the rules' limit, and how long they play
 * in all (each song's seconds rounded, as Subsonic gives a song's duration). Without a limit one
 * pass over the matches; with one, the first `limit` in the rules' order.
 */
export function matchSummarySql(rules: SmartRules, options: { viewerId: number; seed: string }): SQL {
  const matches = sql`from songs s${joinsOf(rules, options.viewerId)} where s.missing_since is null and ${ruleSql(rules.root)}`;
  const seconds = (column: SQL) => sql`coalesce(sum(floor(coalesce(${column}, 0) + 0.5)), 0)::bigint as seconds`;
  if (rules.limit === null) return sql`select count(*)::int as total, ${seconds(sql`s.duration_seconds`)} ${matches}`;
  return sql`
    select count(*)::int as total, ${seconds(sql`m.duration_seconds`)}
    from (select s.duration_seconds ${matches} order by ${sortSql(rules.sort, options.seed)} limit ${rules.limit}::int) m`;
}
