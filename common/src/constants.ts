/** Business constants of SPEC section 9, shared by the server and the web app. */
export const LANDING_ROTATION_MS = 3000;
export const LANDING_CARD_COUNT = 4;
export const MUSIC_PAGE_SIZE_GRID = 8;
export const MUSIC_PAGE_SIZE_COMPACT = 12;
export const PASSWORD_MIN_LENGTH = 8;
/** No truncation: argon2 hashes the whole string; this cap only bounds the work per request. */
export const PASSWORD_MAX_LENGTH = 256;
export const USERNAME_MAX_LENGTH = 50;
export const EMAIL_MAX_LENGTH = 254;
export const AUTH_SUBMIT_DELAY_MS = 1500;
export const PLAYER_INITIAL_VOLUME = 0.8;
export const SEEK_STEP_SECONDS = 0.1;
export const UPLOAD_RESET_DELAY_MS = 3000;
export const LIKE_HEART_MS = 1000;
export const RESET_REDIRECT_DELAY_MS = 3000;
export const TOP_BAR_SCROLL_THRESHOLD_PX = 10;
export const LIBRARY_DROPDOWN_WIDTH_PX = 500;
export const TOAST_DURATION_MS = 4000;
export const TOAST_VISIBLE_MAX = 3;
export const TOKEN_STORAGE_KEY = 'token';
export const USERNAME_STORAGE_KEY = 'userName';
export const EMAIL_STORAGE_KEY = 'email';
/** Password reset links expire after this long (DECISIONS). */
export const RESET_TOKEN_TTL_MINUTES = 30;
