"""Speech and music datasets read from their standard files (MindSpore 2.10's names,
columns, dtypes and layouts). ``waveform`` is float32 in [-1, 1] from the PCM file: a vector
for mono audio, (channels, samples) else; ``sample_rate`` is uint32 or int32 as 2.10 has it
per data set."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from sporeling.data import DataError

from .file_source import FileDataset, check_dir, check_file, check_usage, read_wav, text_lines

__all__ = ["CMUArcticDataset", "GTZANDataset", "LJSpeechDataset", "LibriTTSDataset",
           "SpeechCommandsDataset", "TedliumDataset", "YesNoDataset", "read_sphere"]


def read_sphere(path):
    """(waveform float32 (a vector when mono), sample_rate int32) of a NIST SPHERE file
    (TED-LIUM's .sph): a text header ("NIST_1A", its size, "key -type value" lines,
    "end_head") then 16-bit PCM."""
    raw = Path(path).read_bytes()
    if not raw.startswith(b"NIST_1A"):
        raise ValueError("not a NIST SPHERE file")
    header_size = int(raw[8:16].split()[0])
    fields = {}
    for line in raw[:header_size].decode("ascii", "replace").splitlines()[2:]:
        parts = line.split(None, 2)
        if parts and parts[0] == "end_head":
            break
        if len(parts) == 3:
            fields[parts[0]] = parts[2].strip()
    width = int(fields.get("sample_n_bytes", 2))
    channels = int(fields.get("channel_count", 1))
    order = ">" if fields.get("sample_byte_format", "01") == "10" else "<"
    if width != 2:
        raise ValueError(f"{width * 8}-bit SPHERE samples are not supported")
    data = np.frombuffer(raw, f"{order}i2", offset=header_size).astype(np.float32) / 32768.0
    waveform = data if channels == 1 else data.reshape(-1, channels).T.copy()
    return waveform, np.int32(int(fields.get("sample_rate", 16000)))


def _wav_row(path, *rest, rate_dtype=np.int32):
    waveform, rate = read_wav(path, rate_dtype)
    return (waveform, rate) + tuple(rest)


class CMUArcticDataset(FileDataset):
    """CMU ARCTIC: ``cmu_us_<name>_arctic/etc/txt.done.data`` ('( arctic_a0001 "text" )'
    lines) and ``wav/<id>.wav`` (under ``ARCTIC/`` too); columns waveform, sample_rate
    (uint32), transcript, utterance_id."""

    def __init__(self, dataset_dir, name=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        op = "CMUArcticDataset"
        base = Path(dataset_dir)
        base = base / "ARCTIC" if (base / "ARCTIC").is_dir() else base
        folder = check_dir(base / f"cmu_us_{name or 'aew'}_arctic", op)
        records = []
        for line in text_lines(check_file(folder / "etc" / "txt.done.data", op)):
            line = line.strip().strip("()").strip()
            if line:
                utt, text = line.split(" ", 1)
                records.append((folder / "wav" / f"{utt}.wav", text.strip().strip('"'), utt))
        self._setup(["waveform", "sample_rate", "transcript", "utterance_id"], records,
                    lambda r: _wav_row(r[0], np.asarray(r[1]), np.asarray(r[2]),
                                       rate_dtype=np.uint32), num_samples,
                    shuffle, sampler, num_shards, shard_id)


class GTZANDataset(FileDataset):
    """GTZAN genres: ``<genre>/<genre>.NNNNN.wav`` (under ``genres/`` too); columns
    waveform, sample_rate (uint32), label (the genre). ``usage`` "all" (default) reads
    every file; 2.10's train/valid/test are fixed file lists not shipped here, so ``usage``
    can instead be a list of file stems ("blues.00000") to read."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        op = "GTZANDataset"
        folder = check_dir(dataset_dir, op)
        root = folder / "genres" if (folder / "genres").is_dir() else folder
        records = [(p, p.parent.name) for p in sorted(root.glob("*/*.wav"))]
        if usage not in (None, "all"):
            if isinstance(usage, str):
                raise DataError("this split's file list is not shipped", op=op,
                                expected="'all' or a list of file stems", got=usage)
            wanted = set(usage)
            records = [r for r in records if r[0].stem in wanted]
        self._setup(["waveform", "sample_rate", "label"], records,
                    lambda r: _wav_row(r[0], np.asarray(r[1]), rate_dtype=np.uint32),
                    num_samples, shuffle, sampler, num_shards, shard_id)


class LJSpeechDataset(FileDataset):
    """LJ Speech: ``metadata.csv`` ("id|transcription|normalized" lines) and
    ``wavs/<id>.wav``; columns waveform, sample_rate (int32), transcription,
    normalized_transcript."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "LJSpeechDataset"
        folder = check_dir(dataset_dir, op)
        records = []
        for line in text_lines(check_file(folder / "metadata.csv", op)):
            parts = line.split("|")
            if len(parts) >= 2:
                records.append((folder / "wavs" / f"{parts[0]}.wav", parts[1],
                                parts[2] if len(parts) > 2 else parts[1]))
        self._setup(["waveform", "sample_rate", "transcription", "normalized_transcript"],
                    records, lambda r: _wav_row(r[0], np.asarray(r[1]), np.asarray(r[2])),
                    num_samples, shuffle, sampler, num_shards, shard_id)


_LIBRITTS = ("dev-clean", "dev-other", "test-clean", "test-other", "train-clean-100",
             "train-clean-360", "train-other-500")


class LibriTTSDataset(FileDataset):
    """LibriTTS: ``<usage>/<speaker>/<chapter>/<utterance>.wav`` (under ``LibriTTS/`` too)
    with the chapter's ``<speaker>_<chapter>.trans.tsv`` ("id, original, normalized" rows;
    else each utterance's ``.original.txt``/``.normalized.txt``); columns waveform,
    sample_rate (uint32), original_text, normalized_text, speaker_id (uint32), chapter_id
    (uint32), utterance_id."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "LibriTTSDataset"
        folder = check_dir(dataset_dir, op)
        root = folder / "LibriTTS" if (folder / "LibriTTS").is_dir() else folder
        usage = check_usage(usage, _LIBRITTS + ("all",), op)
        parts = _LIBRITTS if usage == "all" else (usage,)
        records = [p for part in parts for p in sorted((root / part).glob("*/*/*.wav"))]

        def texts(p):
            spk, chapter = p.stem.split("_")[:2]
            table = p.with_name(f"{spk}_{chapter}.trans.tsv")
            if table.exists():
                for line in text_lines(table):
                    parts = line.split("\t")
                    if parts[0] == p.stem and len(parts) >= 3:
                        return parts[1], parts[2]
            return tuple(p.with_name(f"{p.stem}.{kind}.txt").read_text(encoding="utf-8").strip()
                         for kind in ("original", "normalized"))

        def load(p):
            spk, chapter = p.stem.split("_")[:2]
            original, normalized = texts(p)
            return _wav_row(p, np.asarray(original), np.asarray(normalized), np.uint32(spk),
                            np.uint32(chapter), np.asarray(p.stem), rate_dtype=np.uint32)
        self._setup(["waveform", "sample_rate", "original_text", "normalized_text",
                     "speaker_id", "chapter_id", "utterance_id"], records, load, num_samples,
                    shuffle, sampler, num_shards, shard_id)


class SpeechCommandsDataset(FileDataset):
    """Speech Commands: ``<label>/<speaker>_nohash_<n>.wav``, ``validation_list.txt`` and
    ``testing_list.txt``; train is everything else (``_background_noise_`` left out).
    Columns waveform, sample_rate (int32), label, speaker_id, utterance_number (int32)."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "SpeechCommandsDataset"
        folder = check_dir(dataset_dir, op)
        usage = check_usage(usage, ("train", "valid", "test", "all"), op)

        def listed(name):
            path = folder / name
            return {line.strip() for line in text_lines(path)} if path.exists() else set()
        valid, test = listed("validation_list.txt"), listed("testing_list.txt")
        files = [p.relative_to(folder).as_posix() for p in sorted(folder.glob("*/*.wav"))
                 if p.parent.name != "_background_noise_"]
        keep = {"valid": lambda f: f in valid, "test": lambda f: f in test,
                "train": lambda f: f not in valid and f not in test,
                "all": lambda f: True}[usage]
        records = [f for f in files if keep(f)]

        def load(rel):
            label, name = rel.split("/")
            speaker, _, number = Path(name).stem.split("_")
            return _wav_row(folder / rel, np.asarray(label), np.asarray(speaker),
                            np.int32(number))
        self._setup(["waveform", "sample_rate", "label", "speaker_id", "utterance_number"],
                    records, load, num_samples, shuffle, sampler, num_shards, shard_id)


class TedliumDataset(FileDataset):
    """TED-LIUM: ``TEDLIUM_release1|2/<usage>/{sph,stm}`` or ``TEDLIUM_release-3/data/
    {sph,stm}``; each .stm line ("talk channel speaker start end <label> transcript") is a
    row cut from the talk's .sph: waveform, sample_rate, transcript, talk_id, speaker_id,
    identifier."""

    def __init__(self, dataset_dir, release, usage=None, extensions=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        op = "TedliumDataset"
        folder = check_dir(dataset_dir, op)
        release = check_usage(release, ("release1", "release2", "release3"), op)
        if release == "release3":
            check_usage(usage, ("all",), op)
            parts = [folder / "TEDLIUM_release-3" / "data"]
        else:
            usage = check_usage(usage, ("train", "dev", "test", "all"), op)
            base = folder / f"TEDLIUM_{release}"
            parts = [base / u for u in (("train", "dev", "test") if usage == "all" else (usage,))]
        ext = extensions or ".sph"
        records = []
        for part in parts:
            for stm in sorted((part / "stm").glob("*.stm")):
                for line in text_lines(stm):
                    fields = line.split(None, 6)
                    if len(fields) < 6 or fields[2] == "inter_segment_gap":
                        continue
                    records.append((part / "sph" / f"{fields[0]}{ext}", float(fields[3]),
                                    float(fields[4]), fields[6] if len(fields) > 6 else "",
                                    fields[0], fields[2], fields[1]))

        def load(r):
            waveform, rate = read_sphere(r[0]) if r[0].suffix == ".sph" else read_wav(r[0])
            start, end = int(r[1] * rate), int(r[2] * rate)
            return (waveform[..., start:end], np.int32(rate), np.asarray(r[3]),
                    np.asarray(r[4]), np.asarray(r[5]), np.asarray(r[6]))
        self._setup(["waveform", "sample_rate", "transcript", "talk_id", "speaker_id",
                     "identifier"], records, load, num_samples, shuffle, sampler, num_shards,
                    shard_id)


class YesNoDataset(FileDataset):
    """Yes/No: ``<b1>_<b2>_..._<b8>.wav`` files; columns waveform, sample_rate (int32) and
    labels (the name's 0/1 list, int32)."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        folder = check_dir(dataset_dir, "YesNoDataset")
        records = sorted(folder.glob("*.wav"))
        self._setup(["waveform", "sample_rate", "labels"], records,
                    lambda p: _wav_row(p, np.asarray([int(b) for b in p.stem.split("_")],
                                                     np.int32)),
                    num_samples, shuffle, sampler, num_shards, shard_id)
