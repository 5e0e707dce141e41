/**
 * The music folders' panel on the All Music page (issue 27), in English. Its keys are message
 * keys of the app; `{name}` marks a value filled in at run time.
 */
export const musicFoldersEn = {
  musicFoldersLabel: 'Music folders',
  musicFoldersSongs_one: 'Music folders: 1 song',
  musicFoldersSongs_other: 'Music folders: {count} songs',
  musicFoldersLastScanned: 'last scanned {when}',
  musicFoldersScannedJustNow: 'last scanned just now',
  musicFoldersNeverScanned: 'not scanned yet',
  musicFoldersScanning: 'Scanning music folders…',
  musicFoldersScanProgress_one: 'Scanning: {done} of 1 file',
  musicFoldersScanProgress_other: 'Scanning: {done} of {count} files',
  musicFoldersProgressLabel: 'Scan progress',
  musicFoldersScanNow: 'Scan now',
  musicFoldersScanStarted: 'Scan started',
  musicFoldersScanFailed: 'Failed to start the scan',
  musicFoldersLoadFailed: 'Failed to load the music folders',
  musicFoldersLastScanFailed: 'The last scan failed: {error}',
  musicFoldersLastScanFailedNoReason: 'The last scan failed.',
  musicFoldersUnavailable: 'Not available: {path}',
  musicFoldersReportButton_one: 'Scan report (1)',
  musicFoldersReportButton_other: 'Scan report ({count})',
  musicFoldersReportTitle: 'Scan report',
  musicFoldersReportDescription: 'Files the scan could not use, and why. Fix them in the folder; the next scan picks them up.',
  musicFoldersReportFirst: 'Showing the first {shown} of {total} problems.',
  musicFoldersReportFolder: 'Folder',
  musicFoldersReportFile: 'File',
  musicFoldersReportReason: 'Reason',
  musicFoldersReportFolderItself: 'The folder itself',
};
