import { checkEmail, checkNewPassword, checkSignInPassword, checkTerms, checkUserName, type RuleResult } from '@encore/common/auth.rules';
import { useState } from 'react';

/** The auth form of SPEC 3, shared by both tabs so a switch keeps what was typed. */
export interface AuthFormValues {
  userName: string;
  email: string;
  password: string;
  rememberMe: boolean;
  acceptTerms: boolean;
}

export type AuthMode = 'signin' | 'signup';
export type AuthField = 'userName' | 'email' | 'password' | 'acceptTerms';
export type AuthErrors = Partial<Record<AuthField, RuleResult>>;

const FIELDS: Record<AuthMode, readonly AuthField[]> = {
  signin: ['userName', 'password'],
  signup: ['userName', 'email', 'password', 'acceptTerms'],
};

/** The SPEC 5 rule for one field on one tab; returns a message key or null. */
export function checkAuthField(mode: AuthMode, field: AuthField, values: AuthFormValues): RuleResult {
  switch (field) {
    case 'userName':
      return checkUserName(values.userName);
    case 'email':
      return checkEmail(values.email);
    case 'password':
      return mode === 'signin' ? checkSignInPassword(values.password) : checkNewPassword(values.password);
    case 'acceptTerms':
      return checkTerms(values.acceptTerms);
  }
}

/** Every field but "Remember me" has a rule. */
function isChecked(field: keyof AuthFormValues): field is AuthField {
  return field !== 'rememberMe';
}

const initialValues: AuthFormValues = {
  userName: '',
  email: '',
  password: '',
  rememberMe: false,
  acceptTerms: false,
};

/**
 * Values and errors of the auth screen: a field is checked on blur, its error clears when it
 * is edited, all errors clear when the tab changes, and submit checks every field of the tab.
 */
export function useAuthForm(mode: AuthMode) {
  const [values, setValues] = useState<AuthFormValues>(initialValues);
  const [errors, setErrors] = useState<AuthErrors>({});
  const [errorsMode, setErrorsMode] = useState(mode);

  // Errors belong to one tab: drop them the moment the tab (the route) changes.
  if (errorsMode !== mode) {
    setErrorsMode(mode);
    setErrors({});
  }

  function setValue<K extends keyof AuthFormValues>(field: K, value: AuthFormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    if (isChecked(field)) {
      setErrors((current) => (current[field] ? { ...current, [field]: null } : current));
    }
  }

  function validateField(field: AuthField) {
    setErrors((current) => ({ ...current, [field]: checkAuthField(mode, field, values) }));
  }

  /** Checks every field of the tab; true when all pass. */
  function validateAll(): boolean {
    const next: AuthErrors = {};
    for (const field of FIELDS[mode]) next[field] = checkAuthField(mode, field, values);
    setErrors(next);
    return Object.values(next).every((result) => result === null);
  }

  return { values, errors, setValue, validateField, validateAll };
}

export type AuthForm = ReturnType<typeof useAuthForm>;
