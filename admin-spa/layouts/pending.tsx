// A screen whose capability a later issue builds: routed, permission-checked, and honest about it.
import { Result } from 'antd';
import type { Screen } from '@contracts/screens.ts';

export default function Pending({ screen }: { screen: Screen }) {
  return (
    <Result
      status="info"
      title={screen.title}
      subTitle={`이 화면은 '${screen.pending}' 기능과 함께 제공됩니다. 권한 설정은 지금도 적용됩니다.`}
    />
  );
}
