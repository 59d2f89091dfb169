import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.table.data.binary.BinaryStringData;

/** Each line of the file args[0] (keys split by tabs) put, in order, into a java.util.HashMap of BinaryStringData
 * keys, as Flink's JSON reader builds a MAP: prints the keys' places in the line in the map's iteration order. */
public class HashMapOrder {
    public static void main(String[] args) throws Exception {
        StringBuilder out = new StringBuilder();
        for (String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
            String[] keys = line.split("\t", -1);
            Map<Object, Integer> map = new HashMap<>();
            for (int i = 0; i < keys.length; i++) {
                map.put(BinaryStringData.fromString(keys[i]), i);
            }
            StringBuilder order = new StringBuilder();
            for (Integer place : map.values()) {
                order.append(order.length() == 0 ? "" : " ").append(place);
            }
            out.append(order).append('\n');
        }
        System.out.print(out);
    }
}
