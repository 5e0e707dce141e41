import { lookUpField, OPERATORS_OF_TYPE, SMART_FIELDS, type SmartFieldInfo, type SmartOperator } from '@encore/common/smart-playlist.rules';

/**
 * The rule editor's draft: a tree of groups and conditions with ids for React, values as the
 * inputs hold them (text). `toRules` writes the `.nsp` JSON the server checks; `fromRules` reads
 * one back (a saved playlist's rules are already in canonical spelling).
 */
export interface DraftCondition {
  kind: 'condition';
  id: string;
  field: string;
  operator: SmartOperator;
  /** The value, or the range's first end. */
  value: string;
  /** The range's second end (inTheRange). */
  value2: string;
}

export interface DraftGroup {
  kind: 'group';
  id: string;
  match: 'all' | 'any';
  rules: DraftRule[];
}

export type DraftRule = DraftCondition | DraftGroup;

export interface Draft {
  root: DraftGroup;
  sort: string;
  order: 'asc' | 'desc';
  limit: string;
}

let next = 0;
const newId = () => `r${++next}`;

export function fieldInfo(name: string): SmartFieldInfo {
  return lookUpField(name) ?? SMART_FIELDS[0];
}

export function newCondition(field = 'genre'): DraftCondition {
  const info = fieldInfo(field);
  return {
    kind: 'condition',
    id: newId(),
    field: info.name,
    operator: OPERATORS_OF_TYPE[info.type][0] ?? 'is',
    value: info.type === 'boolean' ? 'true' : '',
    value2: '',
  };
}

export function newGroup(match: 'all' | 'any' = 'any'): DraftGroup {
  return { kind: 'group', id: newId(), match, rules: [newCondition()] };
}

export function emptyDraft(): Draft {
  return { root: { kind: 'group', id: newId(), match: 'all', rules: [newCondition()] }, sort: 'title', order: 'asc', limit: '' };
}

/** A condition changed to another field keeps its operator when the field takes it. */
export function withField(condition: DraftCondition, field: string): DraftCondition {
  const info = fieldInfo(field);
  const operators = OPERATORS_OF_TYPE[info.type];
  const operator = operators.includes(condition.operator) ? condition.operator : (operators[0] ?? 'is');
  const sameType = fieldInfo(condition.field).type === info.type;
  return {
    ...condition,
    field: info.name,
    operator,
    value: sameType ? condition.value : info.type === 'boolean' ? 'true' : '',
    value2: sameType ? condition.value2 : '',
  };
}

function valueOf(condition: DraftCondition): unknown {
  const info = fieldInfo(condition.field);
  const number = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? text : Number(text));
  if (condition.operator === 'inTheRange')
    return info.type === 'date' ? [condition.value, condition.value2] : [number(condition.value), number(condition.value2)];
  if (condition.operator === 'inTheLast' || condition.operator === 'notInTheLast') return number(condition.value);
  if (info.type === 'number') return number(condition.value);
  if (info.type === 'boolean') return condition.value === 'true';
  return condition.value;
}

function ruleToJson(rule: DraftRule): Record<string, unknown> {
  if (rule.kind === 'condition') return { [rule.operator]: { [rule.field]: valueOf(rule) } };
  return { [rule.match]: rule.rules.map(ruleToJson) };
}

/** The draft as `.nsp` rules. */
export function toRules(draft: Draft): Record<string, unknown> {
  const limit = Number(draft.limit);
  return {
    [draft.root.match]: draft.root.rules.map(ruleToJson),
    sort: draft.sort,
    order: draft.order,
    ...(draft.limit.trim() !== '' && Number.isInteger(limit) && limit > 0 ? { limit } : {}),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function ruleFromJson(json: Record<string, unknown>): DraftRule[] {
  return Object.entries(json).flatMap(([key, inner]): DraftRule[] => {
    if ((key === 'all' || key === 'any') && Array.isArray(inner)) {
      return [{ kind: 'group', id: newId(), match: key, rules: inner.filter(isObject).flatMap(ruleFromJson) }];
    }
    if (!isObject(inner)) return [];
    return Object.entries(inner).map(([field, value]) => {
      const range = Array.isArray(value) ? value : undefined;
      return {
        kind: 'condition' as const,
        id: newId(),
        field: fieldInfo(field).name,
        operator: key as SmartOperator,
        value: range ? String(range[0] ?? '') : String(value),
        value2: range ? String(range[1] ?? '') : '',
      };
    });
  });
}

/** Saved rules as a draft. */
export function fromRules(rules: Record<string, unknown>): Draft {
  const match = Array.isArray(rules['any']) ? 'any' : 'all';
  const list = rules[match];
  const sortText = typeof rules['sort'] === 'string' ? rules['sort'] : 'title';
  // The editor offers one sort field: the first, its direction as the order.
  const first = sortText.split(',')[0]?.trim() ?? 'title';
  const descending = first.startsWith('-') !== (rules['order'] === 'desc');
  return {
    root: { kind: 'group', id: newId(), match, rules: Array.isArray(list) ? list.filter(isObject).flatMap(ruleFromJson) : [] },
    sort: first.replace(/^[+-]/, '') || 'title',
    order: descending ? 'desc' : 'asc',
    limit: typeof rules['limit'] === 'number' ? String(rules['limit']) : '',
  };
}

/** Replaces the rule with this id anywhere in the tree (or removes it, with undefined). */
export function updateRule(group: DraftGroup, id: string, change: (rule: DraftRule) => DraftRule | undefined): DraftGroup {
  return {
    ...group,
    rules: group.rules.flatMap((rule) => {
      if (rule.id === id) {
        const changed = change(rule);
        return changed ? [changed] : [];
      }
      return rule.kind === 'group' ? [updateRule(rule, id, change)] : [rule];
    }),
  };
}
