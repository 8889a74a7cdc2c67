package dev.spindle.maven;

import dev.spindle.weaver.ClassFileTree;
import dev.spindle.weaver.ClassHierarchy;
import dev.spindle.weaver.WovenMethod;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Weaves the {@code @Future} variables of the project's classes in place. Bound to
 * {@code process-classes} it weaves {@code target/classes}; bound to {@code process-test-classes}
 * it weaves {@code target/test-classes}. Anything the weaver refuses fails the build, naming
 * class, method, source line and reason, and leaves every class file as it was.
 *
 * <pre>{@code
 * <plugin>
 *   <groupId>dev.spindle</groupId>
 *   <artifactId>spindle-maven-plugin</artifactId>
 *   <version>0.1.0-SNAPSHOT</version>
 *   <extensions>true</extensions>   <!-- binds weave to process-classes and process-test-classes -->
 * </plugin>
 * }</pre>
 */
@Mojo(name = "weave", defaultPhase = LifecyclePhase.PROCESS_CLASSES, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public class WeaveMojo extends AbstractMojo {
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    @Parameter(defaultValue = "${mojoExecution}", readonly = true, required = true)
    private MojoExecution execution;

    /** Skip weaving. */
    @Parameter(property = "spindle.weave.skip", defaultValue = "false")
    private boolean skip;

    /** Weave the test classes instead of the main classes (default: when bound to process-test-classes). */
    @Parameter(property = "spindle.weave.testClasses")
    private Boolean testClasses;

    /** If set, the original bytes of every woven class are kept here (same relative paths). */
    @Parameter(property = "spindle.weave.unwovenCopies")
    private File unwovenCopies;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("spindle: weaving skipped");
            return;
        }
        boolean tests = testClasses != null ? testClasses
                : "process-test-classes".equals(execution.getLifecyclePhase());
        Path dir = Path.of(tests ? project.getBuild().getTestOutputDirectory() : project.getBuild().getOutputDirectory());
        if (!Files.isDirectory(dir)) {
            getLog().info("spindle: nothing to weave (" + dir + " does not exist)");
            return;
        }
        List<String> elements;
        try {
            elements = tests ? project.getTestClasspathElements() : project.getCompileClasspathElements();
        } catch (Exception e) {
            throw new MojoExecutionException("spindle: cannot resolve the class path of " + project.getId(), e);
        }
        try (URLClassLoader cp = new URLClassLoader(urls(elements), ClassLoader.getPlatformClassLoader())) {
            ClassFileTree.Options options = new ClassFileTree.Options()
                    .unwovenCopies(unwovenCopies == null ? null : unwovenCopies.toPath());
            ClassFileTree.Report r = ClassFileTree.weave(dir, null, ClassHierarchy.ofLoader(cp), options);
            for (String f : r.failures()) {
                getLog().error("spindle: refused " + f);
            }
            if (!r.ok()) {
                throw new MojoFailureException("spindle: " + r.failures().size() + " @Future declaration(s) cannot be"
                        + " woven (nothing was written):\n  " + String.join("\n  ", r.failures()));
            }
            int futures = 0;
            for (WovenMethod m : r.woven()) {
                getLog().debug("spindle: woven " + m);
                futures += m.calls();
            }
            getLog().info("spindle: wove " + r.woven().size() + " method(s), " + futures + " potential future(s) in " + dir);
        } catch (IOException e) {
            throw new MojoExecutionException("spindle: weaving " + dir + " failed: " + e.getMessage(), e);
        }
    }

    private static URL[] urls(List<String> elements) throws MojoExecutionException {
        List<URL> urls = new ArrayList<>();
        for (String e : elements) {
            try {
                urls.add(new File(e).toURI().toURL());
            } catch (MalformedURLException ex) {
                throw new MojoExecutionException("bad class path element " + e, ex);
            }
        }
        return urls.toArray(URL[]::new);
    }
}
