import { ProfilePage } from '../features/auth/profile.page';
import { ListenBrainzSection } from '../features/listening/listenbrainz.component';

/**
 * The profile page with the listening feature's ListenBrainz section (issue 30), composed here so
 * that neither feature imports the other (eslint.config.js enforces it).
 */
const addOns = { ListenBrainzSection };

export function ComposedProfilePage() {
  return <ProfilePage addOns={addOns} />;
}
