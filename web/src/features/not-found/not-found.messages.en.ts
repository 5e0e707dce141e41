/**
 * The page-not-found page, in English. Its keys are message keys of the app; `{name}` marks a
 * value filled in at run time.
 */
export const notFoundEn = {
  // Not found page
  notFoundTitle: 'Page Not Found',
  notFoundCode: '404',
  notFoundBody: "The page you're looking for doesn't exist or has moved.",
};
