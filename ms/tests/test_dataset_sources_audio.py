"""Audio datasets round-trip through WAV (written with the standard library) and NIST
SPHERE files in their real layouts."""
import wave

import numpy as np
import pytest

from sporeling.ms import dataset as ds

rng = np.random.default_rng(0)


def write_wav(path, samples, rate=8000, channels=1):
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(np.asarray(samples, "<i2").tobytes())
    data = np.asarray(samples, np.float32) / 32768
    return data if channels == 1 else data.reshape(-1, channels).T


def rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True))


def pcm(n=10):
    return rng.integers(-32768, 32767, n)


def test_yesno_waveform_and_labels(tmp_path):
    want = write_wav(tmp_path / "0_1_1_0_0_1_0_1.wav", pcm(), 8000)
    d = ds.YesNoDataset(str(tmp_path))
    assert d.get_col_names() == ["waveform", "sample_rate", "labels"]
    (waveform, rate, label), = rows(d)
    np.testing.assert_array_equal(waveform, want)
    assert waveform.shape == (10,) and waveform.dtype == np.float32
    assert int(rate) == 8000 and rate.dtype == np.int32
    assert label.tolist() == [0, 1, 1, 0, 0, 1, 0, 1]


def test_stereo_wav_is_channels_first(tmp_path):
    want = write_wav(tmp_path / "1_0.wav", pcm(8), 16000, channels=2)
    (waveform, _, _), = rows(ds.YesNoDataset(str(tmp_path)))
    assert waveform.shape == (2, 4)
    np.testing.assert_array_equal(waveform, want)


def test_cmu_arctic_and_ljspeech(tmp_path):
    root = tmp_path / "cmu_us_aew_arctic"
    want = write_wav(root / "wav" / "arctic_a0001.wav", pcm())
    (root / "etc").mkdir()
    (root / "etc" / "txt.done.data").write_text('( arctic_a0001 "Author of the danger." )\n')
    (waveform, rate, transcript, utt), = rows(ds.CMUArcticDataset(str(tmp_path)))
    np.testing.assert_array_equal(waveform, want)
    assert transcript == "Author of the danger." and utt == "arctic_a0001"
    assert rate.dtype == np.uint32
    write_wav(tmp_path / "lj" / "wavs" / "LJ001-0001.wav", pcm())
    (tmp_path / "lj" / "metadata.csv").write_text("LJ001-0001|Dr. Who|Doctor Who\n")
    lj = ds.LJSpeechDataset(str(tmp_path / "lj"))
    assert lj.get_col_names()[3] == "normalized_transcript"
    row, = rows(lj)
    assert (row[2], row[3]) == ("Dr. Who", "Doctor Who")


def test_gtzan_libritts_speechcommands(tmp_path):
    write_wav(tmp_path / "g" / "blues" / "blues.00000.wav", pcm())
    write_wav(tmp_path / "g" / "rock" / "rock.00001.wav", pcm())
    assert [r[2] for r in rows(ds.GTZANDataset(str(tmp_path / "g"), shuffle=False))] == \
        ["blues", "rock"]
    only = ds.GTZANDataset(str(tmp_path / "g"), usage=["rock.00001"])
    assert only.get_dataset_size() == 1
    utt = tmp_path / "l" / "dev-clean" / "84" / "121123" / "84_121123_000007_000001"
    write_wav(utt.with_suffix(".wav"), pcm())
    utt.with_name("84_121123.trans.tsv").write_text(f"{utt.name}\tHello, World\tHello World\n")
    row, = rows(ds.LibriTTSDataset(str(tmp_path / "l"), "dev-clean"))
    assert (row[2], row[3], int(row[4]), int(row[5]), row[6]) == (
            "Hello, World", "Hello World", 84, 121123, "84_121123_000007_000001")
    sc = tmp_path / "sc"
    for rel in ("yes/aa_nohash_0.wav", "yes/bb_nohash_1.wav", "no/cc_nohash_2.wav"):
        write_wav(sc / rel, pcm())
    (sc / "validation_list.txt").write_text("yes/bb_nohash_1.wav\n")
    (sc / "testing_list.txt").write_text("no/cc_nohash_2.wav\n")
    train = rows(ds.SpeechCommandsDataset(str(sc), "train"))
    assert [(r[2], r[3], int(r[4])) for r in train] == [("yes", "aa", 0)]
    assert ds.SpeechCommandsDataset(str(sc), "all").get_dataset_size() == 3


def write_sphere(path, samples, rate=16000):
    header = (f"NIST_1A\n   1024\nsample_rate -i {rate}\nchannel_count -i 1\n"
              f"sample_n_bytes -i 2\nsample_byte_format -s2 01\nsample_count -i {len(samples)}\n"
              "end_head\n").encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header.ljust(1024, b" ") + np.asarray(samples, "<i2").tobytes())


def test_tedlium_cuts_utterances_from_sphere(tmp_path):
    samples = pcm(40)
    base = tmp_path / "TEDLIUM_release1" / "test"
    write_sphere(base / "sph" / "Talk1.sph", samples, rate=10)
    (base / "stm").mkdir(parents=True)
    (base / "stm" / "Talk1.stm").write_text(
        "Talk1 1 Spk1 0.5 2.0 <o,f0,male> hello there\n"
        "Talk1 1 inter_segment_gap 2.0 2.5 <o,,unknown> ignore\n")
    (waveform, rate, transcript, talk, speaker, ident), = rows(
        ds.TedliumDataset(str(tmp_path), "release1", "test"))
    np.testing.assert_array_equal(waveform, samples[5:20] / 32768)
    assert (int(rate), transcript, talk, speaker, ident) == (10, "hello there", "Talk1",
                                                             "Spk1", "1")


def test_missing_folder_is_a_named_error(tmp_path):
    from sporeling.data import DataError
    with pytest.raises(DataError, match="no such folder"):
        ds.YesNoDataset(str(tmp_path / "nope"))
