/**
 * The upload page, in English. Its keys are message keys of the app; `{name}` marks a value filled
 * in at run time.
 */
export const uploadEn = {
  // Upload page (/upload)
  uploadTitle: 'Upload Music',
  uploadTagline: 'Add your songs to Encore, then turn your music into visuals with AI.',
  uploadChooseFiles: 'Choose music files',
  uploadDropHere: 'Drag and drop your music files here',
  uploadDropNow: 'Drop to add them',
  uploadOrBrowse: 'or click to browse',
  uploadLimits: 'Up to {mb}MB per file · MP3, WAV, OGG, M4A or FLAC',
  uploadSelectedFiles: 'Selected files',
  uploadRemoveFile: 'Remove {name}',
  uploadProgressLabel: 'Upload progress of {name}',
  uploadFileDone: 'Uploaded',
  uploadButton: 'Upload Music File',
  uploadingPercent: 'Uploading... {percent}',
  uploadComplete: 'Upload Complete',
  uploadSuccessful: 'Upload successful',
  uploadSuccessfulCount: '{done} of {total} files uploaded',
  uploadFailed: 'Upload failed',
  noFileSelected: 'No file selected',
  uploadMissingUrl: 'Invalid response: Missing URL',
  uploadTooLarge: '{name} is larger than {mb}MB',
  uploadTooLargeShort: 'Larger than {mb}MB: not sent',
  uploadOnlyMusic: 'Please upload only music files',

  // Library: a file queued behind the one uploading; the way from empty Favorites to all songs
  uploadWaiting: 'Waiting',
};
