import { AUTH_SUBMIT_DELAY_MS } from '@encore/common/constants';

/** The spinner pause before an auth call is made (SPEC 9: 1.5 s). */
export function authSubmitDelay(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, AUTH_SUBMIT_DELAY_MS));
}
