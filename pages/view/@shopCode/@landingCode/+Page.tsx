import { useData } from 'vike-react/useData';

export default function Page() {
  const data = useData<{ title: string }>();
  return <h1>{data.title}</h1>;
}
