import { CodeTableScreen } from '@/components/code-table-screen.tsx';

export default function Screen() {
  return <CodeTableScreen kind="media-type" />;
}
