/**
 * The rules of a smart playlist (issue 41): Navidrome's `.nsp` JSON, so their files work
 * unchanged, with Encore's own fields (the sonic analysis, lyrics, folder path) as additions.
 *
 *   { "all": [ { "is": { "loved": true } }, { "any": [ { "gt": { "bpm": 120 } }, ... ] } ],
 *     "sort": "playCount", "order": "desc", "limit": 100 }
 *
 * Keys are matched without regard to case, as Navidrome does ("lastPlayed", "lastplayed").
 * `parseSmartRules` turns such a value into a checked tree or says, in one sentence, what is
 * wrong with it; `toNsp` writes the tree back in the `.nsp` shape with the canonical spellings.
 */

export type SmartFieldType = 'text' | 'number' | 'date' | 'boolean';

export interface SmartFieldInfo {
  /** The canonical spelling (what `toNsp` writes). */
  name: string;
  type: SmartFieldType;
  /** Navidrome has it too; the others are Encore's additions. */
  navidrome: boolean;
  /** The viewer's own data (plays, likes, ratings): two users see different songs. */
  perUser?: boolean;
  /** Values a text field takes (the editor offers them). */
  choices?: readonly string[];
  /** Text shown after a number (the editor's hint): seconds, kbps, LUFS, 0..1. */
  unit?: 's' | 'kbps' | 'Hz' | 'bytes' | 'LUFS' | 'BPM' | '0-1' | 'stars';
}

export const SMART_FIELDS = [
  { name: 'title', type: 'text', navidrome: true },
  { name: 'artist', type: 'text', navidrome: true },
  { name: 'albumArtist', type: 'text', navidrome: true },
  { name: 'album', type: 'text', navidrome: true },
  { name: 'genre', type: 'text', navidrome: true },
  { name: 'year', type: 'number', navidrome: true },
  { name: 'trackNumber', type: 'number', navidrome: true },
  { name: 'discNumber', type: 'number', navidrome: true },
  { name: 'compilation', type: 'boolean', navidrome: true },
  { name: 'dateAdded', type: 'date', navidrome: true },
  { name: 'lastPlayed', type: 'date', navidrome: true, perUser: true },
  { name: 'playCount', type: 'number', navidrome: true, perUser: true },
  { name: 'loved', type: 'boolean', navidrome: true, perUser: true },
  { name: 'dateLoved', type: 'date', navidrome: true, perUser: true },
  { name: 'rating', type: 'number', navidrome: true, perUser: true, unit: 'stars' },
  { name: 'duration', type: 'number', navidrome: true, unit: 's' },
  { name: 'fileType', type: 'text', navidrome: true },
  { name: 'codec', type: 'text', navidrome: true },
  { name: 'bitrate', type: 'number', navidrome: true, unit: 'kbps' },
  { name: 'sampleRate', type: 'number', navidrome: true, unit: 'Hz' },
  { name: 'size', type: 'number', navidrome: true, unit: 'bytes' },
  { name: 'filePath', type: 'text', navidrome: true },
  { name: 'lyrics', type: 'text', navidrome: true },
  { name: 'hasLyrics', type: 'boolean', navidrome: false },
  { name: 'bpm', type: 'number', navidrome: true, unit: 'BPM' },
  { name: 'key', type: 'text', navidrome: false, choices: ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'] },
  { name: 'mode', type: 'text', navidrome: false, choices: ['major', 'minor'] },
  { name: 'energy', type: 'number', navidrome: false, unit: '0-1' },
  { name: 'brightness', type: 'number', navidrome: false, unit: '0-1' },
  { name: 'danceability', type: 'number', navidrome: false, unit: '0-1' },
  { name: 'vocals', type: 'boolean', navidrome: false },
  { name: 'instrumental', type: 'boolean', navidrome: false },
  { name: 'loudness', type: 'number', navidrome: false, unit: 'LUFS' },
] as const satisfies readonly SmartFieldInfo[];

export type SmartFieldName = (typeof SMART_FIELDS)[number]['name'];

/** Other spellings a file may use for a field (Navidrome's own, or a word people expect). */
const FIELD_ALIASES: Readonly<Record<string, string>> = {
  liked: 'loved',
  starred: 'loved',
  format: 'fileType',
  suffix: 'fileType',
  path: 'filePath',
  folderpath: 'filePath',
  folder: 'filePath',
  added: 'dateAdded',
  plays: 'playCount',
  tempo: 'bpm',
  albumartists: 'albumArtist',
};

const FIELDS_BY_KEY = new Map<string, SmartFieldInfo>(SMART_FIELDS.map((field): [string, SmartFieldInfo] => [field.name.toLowerCase(), field]));

/** The field a key of a file names (any case, or an alias); undefined when Encore knows no such field. */
export function lookUpField(key: string): SmartFieldInfo | undefined {
  const lower = key.toLowerCase();
  const alias = FIELD_ALIASES[lower];
  return FIELDS_BY_KEY.get(alias ? alias.toLowerCase() : lower);
}

export const SMART_OPERATORS = [
  'is',
  'isNot',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'gt',
  'lt',
  'inTheRange',
  'inTheLast',
  'notInTheLast',
  'before',
  'after',
] as const;
export type SmartOperator = (typeof SMART_OPERATORS)[number];

const OPERATORS_BY_KEY = new Map<string, SmartOperator>(SMART_OPERATORS.map((operator) => [operator.toLowerCase(), operator]));

/** Which operators each type of field takes, in the order the editor offers them. */
export const OPERATORS_OF_TYPE: Readonly<Record<SmartFieldType, readonly SmartOperator[]>> = {
  text: ['is', 'isNot', 'contains', 'notContains', 'startsWith', 'endsWith'],
  number: ['is', 'isNot', 'gt', 'lt', 'inTheRange'],
  date: ['inTheLast', 'notInTheLast', 'before', 'after', 'is', 'isNot', 'inTheRange'],
  boolean: ['is', 'isNot'],
};

/** A date as the rules write it: a calendar day (UTC). */
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export type SmartValue = string | number | boolean | readonly [number, number] | readonly [string, string];

export interface SmartCondition {
  kind: 'condition';
  operator: SmartOperator;
  field: SmartFieldName;
  value: SmartValue;
}

export interface SmartGroup {
  kind: 'all' | 'any';
  rules: SmartRule[];
}

export type SmartRule = SmartCondition | SmartGroup;

export interface SmartSortKey {
  field: SmartFieldName | 'random';
  descending: boolean;
}

export interface SmartRules {
  root: SmartGroup;
  sort: SmartSortKey[];
  /** At most this many songs (the first by the sort); null: every match. */
  limit: number | null;
}

/** How deep groups may nest (the top group is 1). */
export const SMART_MAX_DEPTH = 10;
/** How many conditions one playlist may have in all. */
export const SMART_MAX_CONDITIONS = 200;
/** The largest `limit`. */
export const SMART_MAX_LIMIT = 100_000;
/** The rules' JSON, written out, may be at most this long (characters). */
export const SMART_MAX_RULES_CHARS = 64 * 1024;
/** Days `inTheLast` may reach back (a century). */
const MAX_DAYS = 36_600;

export type ParsedRules = { ok: true; rules: SmartRules } | { ok: false; message: string };

class RulesError extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks a smart playlist's rules (the `.nsp` shape); the message names the first problem found. */
export function parseSmartRules(input: unknown): ParsedRules {
  try {
    if (!isObject(input)) throw new RulesError('The rules must be an object with "all" or "any"');
    let size: number;
    try {
      size = JSON.stringify(input).length;
    } catch {
      throw new RulesError('The rules are not plain JSON');
    }
    if (size > SMART_MAX_RULES_CHARS) throw new RulesError(`The rules can be at most ${SMART_MAX_RULES_CHARS / 1024} KB of JSON`);
    const keys = lowerKeys(input);
    if (keys.has('all') && keys.has('any')) throw new RulesError('The rules have both "all" and "any" at the top: nest one inside the other');
    const topKey = keys.has('all') ? 'all' : keys.has('any') ? 'any' : undefined;
    if (!topKey) throw new RulesError('The rules need "all" or "any": a list of conditions');
    const counter = { conditions: 0 };
    const root = parseGroup(topKey, keys.get(topKey), 1, counter);
    if (counter.conditions === 0) throw new RulesError('The rules need at least one condition');
    return { ok: true, rules: { root, sort: parseSort(keys.get('sort'), keys.get('order')), limit: parseLimit(keys.get('limit')) } };
  } catch (error) {
    if (error instanceof RulesError) return { ok: false, message: error.message };
    throw error;
  }
}

function lowerKeys(object: Record<string, unknown>): Map<string, unknown> {
  return new Map(Object.entries(object).map(([key, value]) => [key.toLowerCase(), value]));
}

function parseGroup(kind: 'all' | 'any', value: unknown, depth: number, counter: { conditions: number }): SmartGroup {
  if (depth > SMART_MAX_DEPTH) throw new RulesError(`The rules nest groups too deep (at most ${SMART_MAX_DEPTH} levels)`);
  if (!Array.isArray(value)) throw new RulesError(`"${kind}" must be a list of conditions`);
  const rules: SmartRule[] = [];
  for (const item of value) {
    if (!isObject(item)) throw new RulesError(`Each entry of "${kind}" must be an object such as {"is": {"genre": "Jazz"}}`);
    const entries = Object.entries(item);
    if (entries.length === 0) throw new RulesError(`An entry of "${kind}" is empty`);
    for (const [key, inner] of entries) {
      const lower = key.toLowerCase();
      if (lower === 'all' || lower === 'any') {
        rules.push(parseGroup(lower, inner, depth + 1, counter));
        continue;
      }
      const operator = OPERATORS_BY_KEY.get(lower);
      if (!operator) throw new RulesError(`Unknown operator "${key}" (known: ${SMART_OPERATORS.join(', ')})`);
      if (!isObject(inner)) throw new RulesError(`"${key}" must name a field and a value, such as {"${key}": {"title": "Love"}}`);
      const fields = Object.entries(inner);
      if (fields.length === 0) throw new RulesError(`"${key}" names no field`);
      const conditions = fields.map(([fieldKey, fieldValue]) => parseCondition(operator, fieldKey, fieldValue));
      counter.conditions += conditions.length;
      if (counter.conditions > SMART_MAX_CONDITIONS) throw new RulesError(`The rules can have at most ${SMART_MAX_CONDITIONS} conditions`);
      // Several fields under one operator must all hold, as Navidrome reads them.
      rules.push(...(conditions.length === 1 || kind === 'all' ? conditions : [{ kind: 'all' as const, rules: conditions }]));
    }
  }
  return { kind, rules };
}

function parseCondition(operator: SmartOperator, key: string, raw: unknown): SmartCondition {
  const field = lookUpField(key);
  if (!field) throw new RulesError(`Unknown field "${key}"`);
  if (!OPERATORS_OF_TYPE[field.type].includes(operator)) {
    throw new RulesError(`The field "${field.name}" does not take "${operator}" (it takes ${OPERATORS_OF_TYPE[field.type].join(', ')})`);
  }
  const name = field.name as SmartFieldName;
  const condition = (value: SmartValue): SmartCondition => ({ kind: 'condition', operator, field: name, value });
  if (operator === 'inTheLast' || operator === 'notInTheLast') {
    const days = asNumber(raw);
    if (days === undefined || !Number.isInteger(days) || days < 1 || days > MAX_DAYS) {
      throw new RulesError(`"${operator}" of "${field.name}" must be a whole number of days from 1 to ${MAX_DAYS}`);
    }
    return condition(days);
  }
  if (operator === 'inTheRange') {
    if (!Array.isArray(raw) || raw.length !== 2) throw new RulesError(`"inTheRange" of "${field.name}" must be a list of two values, [from, to]`);
    if (field.type === 'date') {
      const [from, to] = raw.map((item) => asDate(item));
      if (from === undefined || to === undefined) throw new RulesError(`"inTheRange" of "${field.name}" must be two dates written YYYY-MM-DD`);
      return condition([from, to]);
    }
    const [from, to] = raw.map((item) => asNumber(item));
    if (from === undefined || to === undefined) throw new RulesError(`"inTheRange" of "${field.name}" must be two numbers`);
    return condition([from, to]);
  }
  switch (field.type) {
    case 'text': {
      const value = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
      if (typeof value !== 'string') throw new RulesError(`The value of "${field.name}" must be text`);
      if (value.length > 1000) throw new RulesError(`The value of "${field.name}" can be at most 1000 characters`);
      return condition(value);
    }
    case 'number': {
      const value = asNumber(raw);
      if (value === undefined) throw new RulesError(`The value of "${field.name}" must be a number`);
      return condition(value);
    }
    case 'boolean': {
      const value = asBoolean(raw);
      if (value === undefined) throw new RulesError(`The value of "${field.name}" must be true or false`);
      return condition(value);
    }
    case 'date': {
      const value = asDate(raw);
      if (value === undefined) throw new RulesError(`The value of "${field.name}" must be a date written YYYY-MM-DD`);
      return condition(value);
    }
  }
}

function asNumber(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) && Math.abs(raw) < 1e15 ? raw : undefined;
  if (typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw.trim())) return Number(raw.trim());
  return undefined;
}

function asBoolean(raw: unknown): boolean | undefined {
  if (typeof raw === 'boolean') return raw;
  if (raw === 1 || raw === 'true' || raw === '1') return true;
  if (raw === 0 || raw === 'false' || raw === '0') return false;
  return undefined;
}

function asDate(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const value = raw.trim().slice(0, 10);
  if (!DATE_PATTERN.test(value)) return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? undefined : value;
}

/** Navidrome's sort: one field, or several separated by commas, each may start with + or -; `order: desc` reverses them all. */
function parseSort(sort: unknown, order: unknown): SmartSortKey[] {
  if (order !== undefined && order !== null && order !== '') {
    if (typeof order !== 'string' || !['asc', 'desc'].includes(order.trim().toLowerCase())) throw new RulesError('"order" must be "asc" or "desc"');
  }
  const reverse = typeof order === 'string' && order.trim().toLowerCase() === 'desc';
  if (sort === undefined || sort === null || sort === '') return [{ field: 'title', descending: reverse }];
  if (typeof sort !== 'string') throw new RulesError('"sort" must be a field name, or several separated by commas');
  const keys: SmartSortKey[] = [];
  for (const part of sort.split(',')) {
    let name = part.trim();
    if (name === '') continue;
    let descending = false;
    if (name.startsWith('+') || name.startsWith('-')) {
      descending = name.startsWith('-');
      name = name.slice(1).trim();
    }
    if (name.toLowerCase() === 'random') {
      keys.push({ field: 'random', descending: false });
      continue;
    }
    const field = lookUpField(name);
    if (!field) throw new RulesError(`Unknown field "${name}" in "sort"`);
    keys.push({ field: field.name as SmartFieldName, descending: descending !== reverse });
  }
  if (keys.length === 0) return [{ field: 'title', descending: reverse }];
  if (keys.length > 5) throw new RulesError('"sort" can name at most 5 fields');
  return keys;
}

function parseLimit(limit: unknown): number | null {
  if (limit === undefined || limit === null || limit === 0) return null;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0 || limit > SMART_MAX_LIMIT) {
    throw new RulesError(`"limit" must be a whole number from 1 to ${SMART_MAX_LIMIT.toLocaleString('en')}`);
  }
  return limit;
}

/** The `.nsp` JSON of checked rules, with canonical spellings (what Navidrome reads too). */
export function toNsp(rules: SmartRules): NspRules {
  const out: NspRules = { [rules.root.kind]: rules.root.rules.map(ruleToNsp) };
  const sort = rules.sort.map((key) => (key.descending ? `-${key.field}` : key.field)).join(',');
  if (sort !== 'title') out.sort = sort;
  if (rules.limit !== null) out.limit = rules.limit;
  return out;
}

function ruleToNsp(rule: SmartRule): Record<string, unknown> {
  if (rule.kind === 'condition') return { [rule.operator]: { [rule.field]: rule.value } };
  return { [rule.kind]: rule.rules.map(ruleToNsp) };
}

/** Rules as a `.nsp` file holds them (without the file's name and comment). */
export interface NspRules {
  all?: Record<string, unknown>[];
  any?: Record<string, unknown>[];
  sort?: string;
  order?: 'asc' | 'desc';
  limit?: number;
  [key: string]: unknown;
}

/** The fields the rules read (to join only the tables they need). */
export function fieldsOf(rules: SmartRules): Set<SmartFieldName | 'random'> {
  const found = new Set<SmartFieldName | 'random'>(rules.sort.map((key) => key.field));
  const walk = (rule: SmartRule) => {
    if (rule.kind === 'condition') found.add(rule.field);
    else rule.rules.forEach(walk);
  };
  walk(rules.root);
  return found;
}

/**
 * A `.nsp` file's text as JSON: Navidrome's files may hold // and /* *\/ comments, which JSON
 * does not allow; they are dropped (outside strings) before parsing.
 */
export function parseNspText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      out += char;
      if (char === '\\') out += text[++i] ?? '';
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      out += char;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
      out += ' ';
    } else out += char;
  }
  try {
    return { ok: true, value: JSON.parse(out) as unknown };
  } catch {
    return { ok: false, message: 'This is not a smart playlist file (.nsp): its JSON cannot be read' };
  }
}
