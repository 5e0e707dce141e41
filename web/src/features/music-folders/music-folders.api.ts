import { musicFolderEndpoints } from '@encore/common/music-folders.contract';
import { callEndpoint } from '../../lib/endpoint-client';
import { translate } from '../../lib/i18n/i18n.store';

/** The music folders calls (issue 27). Failures throw ApiError; callers decide what to show. */

/** The folders, the scan's status and the scan report. */
export function fetchMusicFolders(signal?: AbortSignal) {
  return callEndpoint(musicFolderEndpoints.list, { fallbackMessage: translate('musicFoldersLoadFailed'), signal });
}

/** Starts a scan (the instance's owner only); the request has no body, the answer is the scan's status. */
export function postScan() {
  return callEndpoint(musicFolderEndpoints.scan, { fallbackMessage: translate('musicFoldersScanFailed') });
}
